import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { transactionRetries } from '../../../src/db/transaction.js';
import { API, createCategory, expectStatus, makeProduct, uniqueSku } from '../../helpers/catalog.js';
import { checkout, inBatches, shopper } from '../../helpers/commerce.js';
import { consistent, staleDerived } from '../../helpers/derived.js';
import type { Client } from '../../helpers/factories.js';
import { useApp } from '../../helpers/use-app.js';
import { WRITERS, type Fire, type Fixture, type Race, type Writer } from './writers.js';

/**
 * src/db/LOCKING.md, raced. Every pair of writers whose locks overlap on one
 * product runs at once, two of each. The lock order holds when every request
 * answers as it would alone (2xx, or the 4xx its rules give when the
 * other writer deleted or used up what it needed), PostgreSQL aborted no
 * transaction as a deadlock victim (transaction() retried nothing), and every
 * derived store is consistent afterwards.
 *
 * The pairs are dealt round robin into `shards` files (lock-order-N.test.ts),
 * so the race runs beside the rest of the suite instead of trailing it alone.
 */
export const SHARDS = 4;

/** Every pair of writers (each writer with itself too), in a fixed order. */
export const PAIRS: readonly (readonly [Writer, Writer])[] = WRITERS.flatMap((a, i) => WRITERS.slice(i).map((b) => [a, b] as const));

export function raceWriterPairs(shard: number): void {
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

  const race: Race = {
    get admin() {
      return t.admin;
    },
    async customer(lines = []) {
      const c = customers[nextCustomer++ % customers.length]!;
      // A refused checkout leaves its lines behind.
      expectStatus(await c.client.delete(`${API}/cart`), 204);
      for (const line of lines) {
        expectStatus(await c.client.post(`${API}/cart/items`, { variant_public_id: line.variantId, quantity: line.quantity }), 200);
      }
      return c;
    },
    async newVariant(f, stock) {
      const variant = await t.admin.post(`${API}/admin/products/${f.product}/variants`, {
        sku: uniqueSku('LOCK'),
        name: 'Extra',
        price: '15.00',
      });
      expectStatus(variant, 201);
      const id = variant.body.data.public_id as string;
      if (stock !== undefined)
        expectStatus(await t.admin.post(`${API}/admin/inventory`, { variant_public_id: id, quantity_on_hand: stock }), 201);
      return id;
    },
    async placedOrder(f, extra = {}) {
      const s = await race.customer([{ variantId: f.variants[0], quantity: 1 }]);
      return { client: s.client, order: expectStatus(await checkout(s.client, s.addressId, extra), 201).public_id as string };
    },
    async review(f) {
      const { client } = await race.customer();
      const body = { product_public_id: f.product, rating: 3, title: 'Fine', comment: 'Fine.' };
      return { client, id: expectStatus(await client.post(`${API}/reviews`, body), 201).public_id as string };
    },
  };

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
    const created = await t.admin.post(`${API}/admin/coupons`, { code: coupon, discount_type: 'FIXED_AMOUNT', discount_value: '1.00' });
    const couponId = expectStatus(created, 201).public_id as string;
    const variants: [string, string] = [made.variants[0].public_id, made.variants[1].public_id];
    return { product: made.id, variants, category, otherCategory, doomed, olderChild, coupon, couponId };
  }

  describe(`every pair of writers that share locks, raced on one product (part ${shard + 1} of ${SHARDS})`, () => {
    for (const [a, b] of PAIRS.filter((_, i) => i % SHARDS === shard)) {
      test(`${a.name} × ${b.name}`, async () => {
        const f = await fixture();
        const fires: [Writer, Fire][] = [];
        for (const writer of [a, b, a, b]) fires.push([writer, await writer.prepare(f, race)]);
        const retriesBefore = { ...transactionRetries(t.db) };
        const answers = await Promise.all(fires.map(([, fire]) => fire()));
        answers.forEach((answer, k) => {
          const writer = fires[k]![0];
          const withCode = `${answer.status} ${answer.body?.error?.code}` as const;
          const allowed = writer.allowed.includes(answer.status) || writer.allowed.includes(withCode);
          assert.ok(allowed, `${writer.name}: ${answer.status} ${answer.text.slice(0, 300)}`);
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
  });
}
