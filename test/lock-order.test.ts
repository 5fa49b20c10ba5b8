import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { transactionRetries } from '../src/db/transaction.js';
import { API, createCategory, expectStatus, makeProduct, uniqueSku } from './helpers/catalog.js';
import { checkout, inBatches, shopper } from './helpers/commerce.js';
import { consistent, staleDerived } from './helpers/derived.js';
import type { Client } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * src/db/LOCKING.md, raced. Every pair of writers whose locks overlap on one
 * product (its row, its variants, their inventory records, the derived
 * stores, its document) runs at once, two of each. The lock order holds when
 * every request answers as it would alone (2xx, or the 404/409 its rules give
 * when the other writer deleted or used up what it needed), PostgreSQL
 * aborted no transaction as a deadlock victim (transaction() retried
 * nothing), and every derived store is consistent afterwards.
 */

/** Customers with an address, made once; a writer takes the next and fills its cart (see `customer`). */
let customers: { client: Client; addressId: string }[] = [];
let nextCustomer = 0;

const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' },
  as: ['ADMIN'],
  async seed(t) {
    // More than one pair's writers use (at most eight), so no two of one race share a customer.
    customers = await inBatches(12, 4, () => shopper(t, []));
  },
});

/** The next customer, round robin, with exactly these lines in the cart (a refused checkout leaves its lines behind). */
async function customer(lines: { variantId: string; quantity: number }[] = []) {
  const c = customers[nextCustomer++ % customers.length]!;
  expectStatus(await c.client.delete(`${API}/cart`), 204);
  for (const line of lines) {
    expectStatus(await c.client.post(`${API}/cart/items`, { variant_public_id: line.variantId, quantity: line.quantity }), 200);
  }
  return c;
}

interface Fixture {
  product: string;
  /** Two variants with plenty of stock. */
  variants: [string, string];
  category: string;
  otherCategory: string;
  /** A category of the product's whose child is older than it (a lower ID), for deletion to lock both against the product's writers. */
  doomed: string;
  olderChild: string;
  /** A coupon without limits, for checkouts that use one. */
  coupon: string;
}

async function fixture(): Promise<Fixture> {
  const category = (await createCategory(t.admin, { name: `Lock ${uniqueSku()}` })).public_id;
  const otherCategory = (await createCategory(t.admin, { name: `Lock other ${uniqueSku()}` })).public_id;
  const olderChild = (await createCategory(t.admin, { name: `Lock child ${uniqueSku()}` })).public_id;
  const doomed = (await createCategory(t.admin, { name: `Lock doomed ${uniqueSku()}` })).public_id;
  expectStatus(await t.admin.patch(`${API}/admin/categories/${olderChild}`, { parent_public_id: doomed }), 200);
  const made = await makeProduct(t.admin, {
    categories: [category, doomed, olderChild],
    variants: [
      { price: '10.00', stock: 1000 },
      { price: '12.00', stock: 1000 },
    ],
  });
  const coupon = uniqueSku('LOCK');
  expectStatus(await t.admin.post(`${API}/admin/coupons`, { code: coupon, discount_type: 'FIXED_AMOUNT', discount_value: '1.00' }), 201);
  const variants: [string, string] = [made.variants[0].public_id, made.variants[1].public_id];
  return { product: made.id, variants, category, otherCategory, doomed, olderChild, coupon };
}

type Fire = () => Promise<{ status: number; text: string; body: any }>;

interface Writer {
  name: string;
  /** Makes what one request needs, then returns the request to fire. */
  prepare(f: Fixture): Promise<Fire>;
  /** Statuses a request may answer with when the other writer got there first (deleted, sold, moved). */
  allowed: number[];
}

const newVariant = async (f: Fixture, stock?: number) => {
  const variant = await t.admin.post(`${API}/admin/products/${f.product}/variants`, {
    sku: uniqueSku('LOCK'),
    name: 'Extra',
    price: '15.00',
  });
  expectStatus(variant, 201);
  if (stock !== undefined)
    expectStatus(
      await t.admin.post(`${API}/admin/inventory`, { variant_public_id: variant.body.data.public_id, quantity_on_hand: stock }),
      201,
    );
  return variant.body.data.public_id as string;
};

const placedOrder = async (f: Fixture, extra: Record<string, unknown> = {}) => {
  const s = await customer([{ variantId: f.variants[0], quantity: 1 }]);
  return expectStatus(await checkout(s.client, s.addressId, extra), 201).public_id as string;
};

const review = async (f: Fixture) => {
  const { client } = await customer();
  const created = expectStatus(
    await client.post(`${API}/reviews`, { product_public_id: f.product, rating: 3, title: 'Fine', comment: 'Fine.' }),
    201,
  );
  return { client, id: created.public_id as string };
};

const WRITERS: Writer[] = [
  {
    name: 'checkout of both variants',
    allowed: [201, 409],
    async prepare(f) {
      const s = await customer([
        { variantId: f.variants[1], quantity: 1 },
        { variantId: f.variants[0], quantity: 1 },
      ]);
      return () => checkout(s.client, s.addressId);
    },
  },
  {
    name: 'checkout of the last unit',
    allowed: [201, 409],
    async prepare(f) {
      const last = await newVariant(f, 1);
      const s = await customer([{ variantId: last, quantity: 1 }]);
      return () => checkout(s.client, s.addressId);
    },
  },
  {
    name: 'checkout with a coupon',
    allowed: [201, 409],
    async prepare(f) {
      const s = await customer([{ variantId: f.variants[0], quantity: 1 }]);
      return () => checkout(s.client, s.addressId, { coupon_code: f.coupon });
    },
  },
  {
    name: 'cancellation of an order that used a coupon',
    allowed: [200],
    async prepare(f) {
      const order = await placedOrder(f, { coupon_code: f.coupon });
      return () => t.admin.patch(`${API}/admin/orders/${order}`, { status: 'CANCELLED' });
    },
  },
  {
    name: 'order cancellation',
    allowed: [200],
    async prepare(f) {
      const order = await placedOrder(f);
      return () => t.admin.patch(`${API}/admin/orders/${order}`, { status: 'CANCELLED' });
    },
  },
  {
    name: 'order shipment',
    allowed: [200],
    async prepare(f) {
      const order = await placedOrder(f);
      expectStatus(await t.admin.patch(`${API}/admin/orders/${order}`, { status: 'CONFIRMED' }), 200);
      return () => t.admin.patch(`${API}/admin/orders/${order}`, { status: 'SHIPPED', carrier: 'Post', tracking_number: 'T1' });
    },
  },
  {
    name: 'stock adjustment',
    allowed: [200, 404],
    prepare: async (f) => () => t.admin.patch(`${API}/admin/inventory/${f.variants[0]}`, { quantity_change: 1, reason: 'count' }),
  },
  {
    name: 'stock reservation',
    allowed: [200, 404],
    prepare: async (f) => () => t.admin.patch(`${API}/admin/inventory/${f.variants[1]}/reservation`, { change: 1, reason: 'hold' }),
  },
  {
    name: 'inventory record creation',
    allowed: [201, 404],
    async prepare(f) {
      const variant = await newVariant(f);
      return () => t.admin.post(`${API}/admin/inventory`, { variant_public_id: variant, quantity_on_hand: 5 });
    },
  },
  {
    name: 'variant creation',
    allowed: [201, 404],
    prepare: async (f) => () =>
      t.admin.post(`${API}/admin/products/${f.product}/variants`, { sku: uniqueSku('NEW'), name: 'New', price: '9.00' }),
  },
  {
    name: 'variant update',
    allowed: [200, 404],
    prepare: async (f) => () =>
      t.admin.patch(`${API}/admin/variants/${f.variants[1]}`, {
        price: (10 + Math.floor(Math.random() * 90)).toFixed(2),
        sku: uniqueSku('RE'),
      }),
  },
  {
    name: 'variant deletion',
    allowed: [204, 404],
    async prepare(f) {
      const variant = await newVariant(f, 3);
      return () => t.admin.delete(`${API}/admin/variants/${variant}`);
    },
  },
  {
    name: 'product update',
    allowed: [200, 404],
    prepare: async (f) => () =>
      t.admin.patch(`${API}/admin/products/${f.product}`, {
        name: `Renamed ${uniqueSku()}`,
        category_public_ids: [f.category, f.otherCategory, f.doomed, f.olderChild],
      }),
  },
  {
    name: 'product creation in its categories',
    allowed: [201, 404],
    prepare: async (f) => () =>
      t.admin.post(`${API}/admin/products`, {
        name: `Beside ${uniqueSku()}`,
        status: 'ACTIVE',
        category_public_ids: [f.category, f.otherCategory, f.doomed, f.olderChild],
      }),
  },
  {
    name: 'product deletion',
    allowed: [204, 404],
    prepare: async (f) => () => t.admin.delete(`${API}/admin/products/${f.product}`),
  },
  {
    name: 'category rename',
    allowed: [200],
    prepare: async (f) => () => t.admin.patch(`${API}/admin/categories/${f.category}`, { name: `Lock ${uniqueSku()}` }),
  },
  {
    name: 'category link',
    allowed: [204, 404],
    prepare: async (f) => () => t.admin.request('PUT', `${API}/admin/categories/${f.otherCategory}/products/${f.product}`),
  },
  {
    name: 'category move',
    allowed: [200],
    async prepare(f) {
      const parent = (await createCategory(t.admin, { name: `Lock parent ${uniqueSku()}` })).public_id;
      return () => t.admin.patch(`${API}/admin/categories/${f.otherCategory}`, { parent_public_id: parent });
    },
  },
  {
    name: 'category deletion',
    allowed: [204, 404],
    // A category of the product's with a child: deleting it unlinks the product and re-parents the child.
    prepare: async (f) => () => t.admin.delete(`${API}/admin/categories/${f.doomed}`),
  },
  {
    name: 'review moderation',
    allowed: [200],
    async prepare(f) {
      const { id } = await review(f);
      return () => t.admin.patch(`${API}/admin/reviews/${id}`, { status: 'APPROVED' });
    },
  },
  {
    name: 'review edit by its author',
    allowed: [200],
    async prepare(f) {
      const { client, id } = await review(f);
      expectStatus(await t.admin.patch(`${API}/admin/reviews/${id}`, { status: 'APPROVED' }), 200);
      return () => client.patch(`${API}/reviews/${id}`, { rating: 5 });
    },
  },
  {
    name: 'review deletion by its author',
    allowed: [204],
    async prepare(f) {
      const { client, id } = await review(f);
      expectStatus(await t.admin.patch(`${API}/admin/reviews/${id}`, { status: 'APPROVED' }), 200);
      return () => client.delete(`${API}/reviews/${id}`);
    },
  },
];

describe('every pair of writers that share locks, raced on one product', () => {
  for (const [i, a] of WRITERS.entries()) {
    for (const b of WRITERS.slice(i)) {
      test(`${a.name} × ${b.name}`, async () => {
        const f = await fixture();
        const fires: [Writer, Fire][] = [];
        for (const writer of [a, b, a, b]) fires.push([writer, await writer.prepare(f)]);
        const retriesBefore = { ...transactionRetries(t.db) };
        const answers = await Promise.all(fires.map(([, fire]) => fire()));
        answers.forEach((answer, k) => {
          const writer = fires[k]![0];
          assert.ok(writer.allowed.includes(answer.status), `${writer.name}: ${answer.status} ${answer.text.slice(0, 300)}`);
        });
        assert.deepEqual(transactionRetries(t.db), retriesBefore, 'no transaction was aborted as a deadlock victim');
        // The race's products (the fixture's and any created beside it) are the newest.
        const { id: fromProductId } = await t.db
          .selectFrom('products')
          .select('id')
          .where('public_id', '=', f.product)
          .executeTakeFirstOrThrow();
        assert.deepEqual(await staleDerived(t.db, { fromProductId }), consistent);
      });
    }
  }
});
