/**
 * Type-level tests, compiled by `npm run typecheck` and never run: each
 * `@ts-expect-error` must meet an error, so a type that stops catching a
 * mistake fails the type-check. The README's examples live in examples/
 * (compiled by the same step; test/readme.test.ts keeps the README's copies equal).
 */
import { ApiError, createCommerceClient, type ErrorCode, type ErrorCodeOf, type SuccessBody } from '../src/index.js';

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

  // A misspelt optional field of a typed call's body, query or options (excess properties are errors).
  await shop.PATCH('/api/v1/admin/inventory/{variant_public_id}', {
    params: { path: { variant_public_id: 'var_1' } },
    // @ts-expect-error the movement's note is `reason`
    body: { quantity_change: 5, note: 'restock' },
  });
  await shop.POST('/api/v1/admin/inventory', {
    // @ts-expect-error the threshold is `reorder_level`
    body: { variant_public_id: 'var_1', quantity_on_hand: 5, reorder_lvl: 2 },
  });
  await shop.GET('/api/v1/admin/inventory', {
    // @ts-expect-error the stock filter is `stock_status`
    params: { query: { status: 'LOW_STOCK' } },
  });
  for await (const record of shop.items('/api/v1/admin/inventory', {
    // @ts-expect-error the stock filter is `stock_status`
    params: { query: { status: 'LOW_STOCK' } },
  }))
    void record;
  // @ts-expect-error `parms` is not an option of a call
  await shop.GET('/api/v1/products', { parms: { query: { search: 'teapot' } } });

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
  const reviews = await shop.products.reviews('prd_1', { sort: '-rating' });
  const reviewCount: number = reviews.meta.total;
  // @ts-expect-error the helpers resolve to data and meta, not the envelope
  void reviews.success;

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
  return { status, total, deleted, reviewCount, code, checkoutCode, wrongCode, unknownCode };
}
