import type { ErrorDetail } from '@commerce/client';

// What the quick start takes from the app around it.
declare const email: string, password: string, address_public_id: string;
declare function showShortages(details: readonly ErrorDetail[]): void;

// #region readme
import { createCommerceClient, ApiError } from '@commerce/client';

const shop = createCommerceClient({ baseUrl: 'https://api.example.com' });

const { data: products } = await shop.products.list({ search: 'teapot', sort: 'price', in_stock: 'true' });
await shop.auth.login({ email, password });
await shop.cart.add({ variant_public_id: products[0]!.variants[0]!.public_id, quantity: 1 });
try {
  const order = await shop.orders.place({ address_public_id, payment_method: 'mock', coupon_code: 'WELCOME10' });
  console.log(`Order ${order.order_number}: ${order.total}`);
} catch (error) {
  if (ApiError.is(error, 'INSUFFICIENT_STOCK')) showShortages(error.details);
  else throw error;
}
// #endregion
