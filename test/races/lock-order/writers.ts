/**
 * The writers of src/db/LOCKING.md that lock a product's rows (its row, its variants, their
 * inventory records, the derived stores, its document) or rows locked with them (orders, coupons,
 * reviews, categories), each with the route it exercises. race.ts fires every pair at once.
 *
 * `NOT_RACED` names every other write route with why it needs no place here, and
 * test/unit/lock-order-coverage.unit.test.ts checks that the two lists together cover every
 * write in the OpenAPI document: a new write route fails that check until it is raced or
 * explained.
 */
import { createCategory, expectStatus, API, uniqueSku } from '../../helpers/catalog.js';
import { checkout } from '../../helpers/commerce.js';
import type { Client } from '../../helpers/factories.js';

export interface Fixture {
  product: string;
  /** Two variants with plenty of stock. */
  variants: [string, string];
  category: string;
  otherCategory: string;
  /** A category of the product's whose child is older than it (a lower ID), for deletion to lock both against the product's writers. */
  doomed: string;
  olderChild: string;
  /** A coupon without limits, for checkouts that use one: its code and ID. */
  coupon: string;
  couponId: string;
}

/** What a writer's preparation may use: the race's admin and customers, and a few ready-made things. */
export interface Race {
  admin: Client;
  /** The next customer, with exactly these lines in the cart. */
  customer(lines?: { variantId: string; quantity: number }[]): Promise<{ client: Client; addressId: string }>;
  /** A new variant of the fixture's product, with a stock record when `stock` is given. */
  newVariant(f: Fixture, stock?: number): Promise<string>;
  /** An order of one unit of the first variant, placed by the customer it returns. */
  placedOrder(f: Fixture, extra?: Record<string, unknown>): Promise<{ client: Client; order: string }>;
  /** A pending review of the product, by the customer it returns. */
  review(f: Fixture): Promise<{ client: Client; id: string }>;
}

export type Fire = () => Promise<{ status: number; text: string; body: any }>;

export interface Writer {
  name: string;
  /** The write route it exercises, as the OpenAPI document names it (`METHOD /path/{param}`). */
  route: string;
  /** Makes what one request needs, then returns the request to fire. */
  prepare(f: Fixture, race: Race): Promise<Fire>;
  /**
   * Answers a request may give when the other writer got there first (deleted,
   * sold, moved): a status, or a status with the one error code it may carry.
   */
  allowed: readonly (number | `${number} ${string}`)[];
}

/**
 * A checkout answers 409 when the other writer sold the stock or used up the
 * coupon, and 400 VARIANT_UNAVAILABLE when it deleted the product meanwhile.
 */
const CHECKOUT_ANSWERS = [201, 409, '400 VARIANT_UNAVAILABLE'] as const;

export const WRITERS: readonly Writer[] = [
  {
    name: 'order cancellation by its customer',
    route: 'POST /api/v1/orders/{order_public_id}/cancel',
    allowed: [200],
    async prepare(f, race) {
      const { client, order } = await race.placedOrder(f);
      return () => client.post(`${API}/orders/${order}/cancel`, {});
    },
  },
  {
    name: 'category unlink',
    route: 'DELETE /api/v1/admin/categories/{category_public_id}/products/{product_public_id}',
    allowed: [204, 404],
    prepare: async (f, race) => () => race.admin.delete(`${API}/admin/categories/${f.category}/products/${f.product}`),
  },
  {
    name: 'category creation under a category of the product',
    route: 'POST /api/v1/admin/categories',
    allowed: [201, 404],
    prepare: async (f, race) => () =>
      race.admin.post(`${API}/admin/categories`, { name: `Lock new ${uniqueSku()}`, parent_public_id: f.doomed }),
  },
  {
    name: 'coupon edit',
    route: 'PATCH /api/v1/admin/coupons/{coupon_public_id}',
    allowed: [200],
    prepare: async (f, race) => () => race.admin.patch(`${API}/admin/coupons/${f.couponId}`, { minimum_order_amount: null }),
  },
  {
    name: 'review submission',
    route: 'POST /api/v1/reviews',
    allowed: [201, 404],
    async prepare(f, race) {
      const { client } = await race.customer();
      return () => client.post(`${API}/reviews`, { product_public_id: f.product, rating: 4, title: 'Good', comment: 'Good.' });
    },
  },

  {
    name: 'checkout of both variants',
    route: 'POST /api/v1/orders',
    allowed: CHECKOUT_ANSWERS,
    async prepare(f, race) {
      const s = await race.customer([
        { variantId: f.variants[1], quantity: 1 },
        { variantId: f.variants[0], quantity: 1 },
      ]);
      return () => checkout(s.client, s.addressId);
    },
  },
  {
    name: 'checkout of the last unit',
    route: 'POST /api/v1/orders',
    allowed: CHECKOUT_ANSWERS,
    async prepare(f, race) {
      const last = await race.newVariant(f, 1);
      const s = await race.customer([{ variantId: last, quantity: 1 }]);
      return () => checkout(s.client, s.addressId);
    },
  },
  {
    name: 'checkout with a coupon',
    route: 'POST /api/v1/orders',
    allowed: CHECKOUT_ANSWERS,
    async prepare(f, race) {
      const s = await race.customer([{ variantId: f.variants[0], quantity: 1 }]);
      return () => checkout(s.client, s.addressId, { coupon_code: f.coupon });
    },
  },
  {
    name: 'cancellation of an order that used a coupon',
    route: 'PATCH /api/v1/admin/orders/{order_public_id}',
    allowed: [200],
    async prepare(f, race) {
      const { order } = await race.placedOrder(f, { coupon_code: f.coupon });
      return () => race.admin.patch(`${API}/admin/orders/${order}`, { status: 'CANCELLED' });
    },
  },
  {
    name: 'order cancellation',
    route: 'PATCH /api/v1/admin/orders/{order_public_id}',
    allowed: [200],
    async prepare(f, race) {
      const { order } = await race.placedOrder(f);
      return () => race.admin.patch(`${API}/admin/orders/${order}`, { status: 'CANCELLED' });
    },
  },
  {
    name: 'order shipment',
    route: 'PATCH /api/v1/admin/orders/{order_public_id}',
    allowed: [200],
    async prepare(f, race) {
      const { order } = await race.placedOrder(f);
      expectStatus(await race.admin.patch(`${API}/admin/orders/${order}`, { status: 'CONFIRMED' }), 200);
      return () => race.admin.patch(`${API}/admin/orders/${order}`, { status: 'SHIPPED', carrier: 'Post', tracking_number: 'T1' });
    },
  },
  {
    name: 'stock adjustment',
    route: 'PATCH /api/v1/admin/inventory/{variant_public_id}',
    allowed: [200, 404],
    prepare: async (f, race) => () => race.admin.patch(`${API}/admin/inventory/${f.variants[0]}`, { quantity_change: 1, reason: 'count' }),
  },
  {
    name: 'stock reservation',
    route: 'PATCH /api/v1/admin/inventory/{variant_public_id}/reservation',
    allowed: [200, 404],
    prepare: async (f, race) => () =>
      race.admin.patch(`${API}/admin/inventory/${f.variants[1]}/reservation`, { change: 1, reason: 'hold' }),
  },
  {
    name: 'inventory record creation',
    route: 'POST /api/v1/admin/inventory',
    allowed: [201, 404],
    async prepare(f, race) {
      const variant = await race.newVariant(f);
      return () => race.admin.post(`${API}/admin/inventory`, { variant_public_id: variant, quantity_on_hand: 5 });
    },
  },
  {
    name: 'variant creation',
    route: 'POST /api/v1/admin/products/{product_public_id}/variants',
    allowed: [201, 404],
    prepare: async (f, race) => () =>
      race.admin.post(`${API}/admin/products/${f.product}/variants`, { sku: uniqueSku('NEW'), name: 'New', price: '9.00' }),
  },
  {
    name: 'variant update',
    route: 'PATCH /api/v1/admin/variants/{variant_public_id}',
    allowed: [200, 404],
    prepare: async (f, race) => () =>
      race.admin.patch(`${API}/admin/variants/${f.variants[1]}`, {
        price: (10 + Math.floor(Math.random() * 90)).toFixed(2),
        sku: uniqueSku('RE'),
      }),
  },
  {
    name: 'variant deletion',
    route: 'DELETE /api/v1/admin/variants/{variant_public_id}',
    allowed: [204, 404],
    async prepare(f, race) {
      const variant = await race.newVariant(f, 3);
      return () => race.admin.delete(`${API}/admin/variants/${variant}`);
    },
  },
  {
    name: 'product update',
    route: 'PATCH /api/v1/admin/products/{product_public_id}',
    allowed: [200, 404],
    prepare: async (f, race) => () =>
      race.admin.patch(`${API}/admin/products/${f.product}`, {
        name: `Renamed ${uniqueSku()}`,
        category_public_ids: [f.category, f.otherCategory, f.doomed, f.olderChild],
      }),
  },
  {
    name: 'product creation in its categories',
    route: 'POST /api/v1/admin/products',
    allowed: [201, 404],
    prepare: async (f, race) => () =>
      race.admin.post(`${API}/admin/products`, {
        name: `Beside ${uniqueSku()}`,
        status: 'ACTIVE',
        category_public_ids: [f.category, f.otherCategory, f.doomed, f.olderChild],
      }),
  },
  {
    name: 'product deletion',
    route: 'DELETE /api/v1/admin/products/{product_public_id}',
    allowed: [204, 404],
    prepare: async (f, race) => () => race.admin.delete(`${API}/admin/products/${f.product}`),
  },
  {
    name: 'category rename',
    route: 'PATCH /api/v1/admin/categories/{category_public_id}',
    allowed: [200],
    prepare: async (f, race) => () => race.admin.patch(`${API}/admin/categories/${f.category}`, { name: `Lock ${uniqueSku()}` }),
  },
  {
    name: 'category link',
    route: 'PUT /api/v1/admin/categories/{category_public_id}/products/{product_public_id}',
    allowed: [204, 404],
    prepare: async (f, race) => () => race.admin.request('PUT', `${API}/admin/categories/${f.otherCategory}/products/${f.product}`),
  },
  {
    name: 'category move',
    route: 'PATCH /api/v1/admin/categories/{category_public_id}',
    allowed: [200],
    async prepare(f, race) {
      const parent = (await createCategory(race.admin, { name: `Lock parent ${uniqueSku()}` })).public_id;
      return () => race.admin.patch(`${API}/admin/categories/${f.otherCategory}`, { parent_public_id: parent });
    },
  },
  {
    name: 'category deletion',
    route: 'DELETE /api/v1/admin/categories/{category_public_id}',
    allowed: [204, 404],
    // A category of the product's with a child: deleting it unlinks the product and re-parents the child.
    prepare: async (f, race) => () => race.admin.delete(`${API}/admin/categories/${f.doomed}`),
  },
  {
    name: 'review moderation',
    route: 'PATCH /api/v1/admin/reviews/{review_public_id}',
    allowed: [200],
    async prepare(f, race) {
      const { id } = await race.review(f);
      return () => race.admin.patch(`${API}/admin/reviews/${id}`, { status: 'APPROVED' });
    },
  },
  {
    name: 'review edit by its author',
    route: 'PATCH /api/v1/reviews/{review_public_id}',
    allowed: [200],
    async prepare(f, race) {
      const { client, id } = await race.review(f);
      expectStatus(await race.admin.patch(`${API}/admin/reviews/${id}`, { status: 'APPROVED' }), 200);
      return () => client.patch(`${API}/reviews/${id}`, { rating: 5 });
    },
  },
  {
    name: 'review deletion by its author',
    route: 'DELETE /api/v1/reviews/{review_public_id}',
    allowed: [204],
    async prepare(f, race) {
      const { client, id } = await race.review(f);
      expectStatus(await race.admin.patch(`${API}/admin/reviews/${id}`, { status: 'APPROVED' }), 200);
      return () => client.delete(`${API}/reviews/${id}`);
    },
  },
];

const ACCOUNT = 'locks only account rows (LOCKING.md steps 16-20), raced in test/races/account-lock-order.test.ts';
const ADDRESS =
  'locks the account and its address book (steps 17, 20; an added one claims its Idempotency-Key first, step 2), raced in test/races/addresses-concurrency.test.ts';
const WEBHOOK =
  "locks an endpoint's event target, then its deliveries, which no writer of the order takes (LOCKING.md, outside the order); raced against the dispatcher in test/races/webhook-deletion-races.test.ts";
const CART =
  "locks the shopper's own cart (step 4: an add first takes the cart's lines lock, which only adds take), which no other shopper's writer touches; raced against checkout in test/races/checkout-races.test.ts";

/** Write routes outside the product's locks, and why. */
export const NOT_RACED: Readonly<Record<string, string>> = {
  'POST /media/api/v1/files/upload': 'writes media_files only, outside the lock order (LOCKING.md)',
  'POST /api/v1/auth/register': ACCOUNT,
  'POST /api/v1/auth/login': ACCOUNT,
  'DELETE /api/v1/auth/session': ACCOUNT,
  'DELETE /api/v1/auth/sessions': ACCOUNT,
  'DELETE /api/v1/auth/sessions/{session_public_id}': ACCOUNT,
  'POST /api/v1/auth/email-verification/verify': ACCOUNT,
  'POST /api/v1/auth/email-verification/resend': ACCOUNT,
  'POST /api/v1/auth/password-reset': ACCOUNT,
  'POST /api/v1/auth/password-reset/verify': ACCOUNT,
  'PATCH /api/v1/users/me': ACCOUNT,
  'PATCH /api/v1/users/me/password': ACCOUNT,
  'POST /api/v1/users/me/email': ACCOUNT,
  'POST /api/v1/users/me/email/verify': ACCOUNT,
  'POST /api/v1/admin/users/{user_public_id}/suspend': ACCOUNT,
  'POST /api/v1/admin/users/{user_public_id}/activate': ACCOUNT,
  'PATCH /api/v1/admin/users/{user_public_id}/role': ACCOUNT,
  'POST /api/v1/users/me/addresses': ADDRESS,
  'PATCH /api/v1/users/me/addresses/{address_public_id}': ADDRESS,
  'DELETE /api/v1/users/me/addresses/{address_public_id}': ADDRESS,
  'DELETE /api/v1/cart': CART,
  'POST /api/v1/cart/items': CART,
  'PATCH /api/v1/cart/items/{variant_public_id}': CART,
  'DELETE /api/v1/cart/items/{variant_public_id}': CART,
  'POST /api/v1/admin/coupons': 'inserts a coupon no other transaction can see before it commits',
  'POST /api/v1/admin/products/{product_public_id}/duplicate':
    "reads its source unlocked and takes the locks a product creation takes (categories FOR SHARE, then rows nobody else sees), raced as 'product creation in its categories'",
  'DELETE /api/v1/admin/coupons/{coupon_public_id}': "locks the coupon's row alone (step 5), as the raced coupon edit does",
  'POST /api/v1/admin/staff-invitations': 'writes staff_invitations only (LOCKING.md, outside the order)',
  'DELETE /api/v1/admin/staff-invitations/{invitation_public_id}': 'writes staff_invitations only (LOCKING.md, outside the order)',
  'POST /api/v1/auth/staff-invitations/preview': 'reads an invitation, writes nothing',
  'POST /api/v1/auth/password-reset/check': 'reads a reset token, writes nothing',
  'POST /api/v1/users/me/email/check': 'reads an email-change token, writes nothing',
  'POST /api/v1/cart/availability': 'reads variants and stock, writes nothing',
  'POST /api/v1/auth/staff-invitations/accept':
    'locks its invitation, then inserts the account and its session (LOCKING.md, outside the order)',
  'POST /api/v1/admin/products/{product_public_id}/variants/batch':
    "takes the locks the raced 'variant creation' and 'inventory record creation' take, in that order (steps 8, 9, 11)",
  'POST /api/v1/admin/imports/products':
    'locks its categories FOR SHARE, products by ID, variants by ID and stock records by variant ID before writing (steps 7, 8, 9, 11), sets statuses last; raced against deletions and last-unit checkouts in races/catalog-import-races.test.ts',
  'POST /api/v1/admin/products/bulk-status': "each product in a transaction of its own, as the raced 'product update'",
  'POST /api/v1/admin/products/bulk-delete': "each product in a transaction of its own, as the raced 'product deletion'",
  'POST /api/v1/admin/inventory/bulk-adjust': "each variant in a transaction of its own, as the raced 'stock adjustment'",
  'POST /api/v1/admin/reviews/bulk': "each review in a transaction of its own, as the raced 'review moderation'",
  'POST /api/v1/admin/expenses': 'an expense locks nothing else (LOCKING.md)',
  'PATCH /api/v1/admin/expenses/{expense_public_id}': 'an expense locks nothing else (LOCKING.md)',
  'DELETE /api/v1/admin/expenses/{expense_public_id}': 'an expense locks nothing else (LOCKING.md)',
  'POST /api/v1/admin/webhooks/endpoints': WEBHOOK,
  'PATCH /api/v1/admin/webhooks/endpoints/{endpoint_public_id}': WEBHOOK,
  'DELETE /api/v1/admin/webhooks/endpoints/{endpoint_public_id}': WEBHOOK,
  'POST /api/v1/admin/webhooks/endpoints/{endpoint_public_id}/rotate-secret': WEBHOOK,
  'POST /api/v1/admin/webhooks/endpoints/{endpoint_public_id}/test': WEBHOOK,
  'POST /api/v1/admin/webhooks/endpoints/{endpoint_public_id}/deliveries/{delivery_public_id}/redeliver': WEBHOOK,
  'POST /api/v1/admin/webhooks/endpoints/{endpoint_public_id}/redeliver': WEBHOOK,
};
