/**
 * Type-level tests, compiled by `npm run typecheck` and never run: each
 * `@ts-expect-error` must meet an error, so a type that stops catching a
 * mistake fails the type-check. The README's examples are here too, so they
 * keep compiling.
 */
import { ApiError, createCommerceClient, createCookieJar, type ErrorCode, type ErrorCodeOf, type SuccessBody } from '../src/index.js';

const shop = createCommerceClient({ baseUrl: '' });

export async function typeTests() {
  // A misspelt query field, body field or path parameter.
  // @ts-expect-error `serach` is not a query parameter of GET /products
  await shop.products.list({ serach: 'teapot' });
  // @ts-expect-error `quantty` is not a field of a cart line
  await shop.cart.add({ variant_public_id: 'var_1', quantty: 1 });
  await shop.GET('/api/v1/products/{product_public_id}', {
    // @ts-expect-error the path parameter is `product_public_id`
    params: { path: { product_id: 'prd_1' } },
  });

  // A value outside an enum.
  // @ts-expect-error `cheapest` is not a sort of GET /products
  await shop.products.list({ sort: 'cheapest' });
  // @ts-expect-error the only payment method is `mock`
  await shop.orders.place({ address_public_id: 'adr_1', payment_method: 'card' });
  await shop.PATCH('/api/v1/admin/orders/{order_public_id}', {
    params: { path: { order_public_id: 'ord_1' } },
    // @ts-expect-error `LOST` is not an order status
    body: { status: 'LOST' },
  });

  // A missing required parameter or field.
  // @ts-expect-error GET /orders/{order_public_id} needs its path parameter
  await shop.GET('/api/v1/orders/{order_public_id}');
  // @ts-expect-error `payment_method` is required
  await shop.orders.place({ address_public_id: 'adr_1' });
  // @ts-expect-error `quantity` is required
  await shop.cart.add({ variant_public_id: 'var_1' });
  // @ts-expect-error no such path
  await shop.GET('/api/v1/prodcts');

  // What comes back is typed too.
  const order = await shop.orders.get('ord_1');
  const status: 'PLACED' | 'CONFIRMED' | 'SHIPPED' | 'FULFILLED' | 'CANCELLED' = order.status;
  // @ts-expect-error orders have no `discount_amount` (it is `discount_total`)
  void order.discount_amount;
  const page = await shop.products.list();
  const total: number = page.meta.total;
  const deleted: SuccessBody<'/api/v1/cart', 'delete'> = undefined;

  // Error codes: the service's, and each operation's own.
  const code: ErrorCode = 'CART_EMPTY';
  const checkoutCode: ErrorCodeOf<'/api/v1/orders', 'post'> = 'INSUFFICIENT_STOCK';
  // @ts-expect-error a checkout never answers SLUG_TAKEN
  const wrongCode: ErrorCodeOf<'/api/v1/orders', 'post'> = 'SLUG_TAKEN';
  // @ts-expect-error not a code of the service
  const unknownCode: ErrorCode = 'OUT_OF_CHEESE';
  try {
    await shop.orders.place({ address_public_id: 'adr_1', payment_method: 'mock' });
  } catch (error) {
    if (ApiError.is(error, 'INSUFFICIENT_STOCK')) {
      const narrowed: 'INSUFFICIENT_STOCK' = error.code;
      void narrowed;
    }
    // @ts-expect-error not a code of the service
    ApiError.is(error, 'NOPE');
  }
  return { status, total, deleted, code, checkoutCode, wrongCode, unknownCode };
}

/** The README's Node script. */
export async function nodeScriptExample() {
  const admin = createCommerceClient({ baseUrl: 'http://localhost:3000' });
  await admin.auth.login({ email: 'admin@example.com', password: 'secret' });
  for await (const record of admin.items('/api/v1/admin/inventory', { params: { query: { stock_status: 'LOW_STOCK', limit: 100 } } })) {
    console.log(record.sku, record.quantity_available);
    await admin.PATCH('/api/v1/admin/inventory/{variant_public_id}', {
      params: { path: { variant_public_id: record.variant_public_id } },
      body: { quantity_change: 50, reason: 'restock' },
    });
  }
  for await (const { data, meta } of admin.pages('/api/v1/admin/orders', { params: { query: { status: 'PLACED', limit: 100 } } })) {
    console.log(`page ${meta.page}/${meta.totalPages}`, data.length);
  }
  const { data: pnl } = await admin.GET('/api/v1/admin/analytics/pnl', { params: { query: { from: '2026-01-01' } } });
  console.log(pnl.total.net_profit);
}

/** The README's server-side forwarding of a visitor's cookies. */
export async function forwardedCookiesExample(cookieHeader: string) {
  const visitor = createCommerceClient({ baseUrl: 'http://api.internal', cookies: createCookieJar(cookieHeader) });
  const { data: orders } = await visitor.orders.list({ limit: 20 });
  return orders.map((o) => `${o.order_number}: ${o.status}, ${o.total}`);
}
