import assert from 'node:assert/strict';
import { test } from 'node:test';
import { transactionRetries } from '../../src/db/transaction.js';
import { API, expectStatus, makeProduct, uniqueSku } from '../helpers/catalog.js';
import { checkout, shopper } from '../helpers/commerce.js';
import { consistent, staleDerived } from '../helpers/derived.js';
import { useApp } from '../helpers/use-app.js';

/**
 * A catalog import raced against the writers it shares counters and rows with (src/db/LOCKING.md,
 * "Catalog import"): product deletions, which move the inventory total before the storefront
 * total, and checkouts selling the last units of the products the file reprices and recounts.
 * The import takes its rows first and sets statuses last, so none of them deadlocks with it.
 */
const t = useApp({ as: ['ADMIN'], env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' } });

const HEADER = 'product_slug,product_name,product_status,sku,variant_name,options,price,quantity_on_hand';
const upload = (rows: string[]) =>
  t.admin.post(`${API}/admin/imports/products?mode=all_or_nothing`, undefined, {
    raw: `${[HEADER, ...rows].join('\r\n')}\r\n`,
    headers: { 'content-type': 'text/csv' },
  });

test('imports of new ACTIVE products with stock, of new prices and counts, beside deletions and last-unit checkouts: no deadlock, every store consistent', async () => {
  const first = await makeProduct(t.admin, { variants: [{ price: '1.00', stock: 1 }] });
  const { id: fromProductId } = await t.db.selectFrom('products').select('id').where('public_id', '=', first.id).executeTakeFirstOrThrow();
  const retriesBefore = { ...transactionRetries(t.db) };
  for (let round = 0; round < 6; round++) {
    const doomed = await Promise.all(Array.from({ length: 3 }, () => makeProduct(t.admin, { variants: [{ price: '5.00', stock: 4 }] })));
    const sold = await Promise.all(Array.from({ length: 2 }, () => makeProduct(t.admin, { variants: [{ price: '7.00', stock: 1 }] })));
    const buyers = await Promise.all(sold.map((p) => shopper(t, [{ variantId: p.variants[0].public_id, quantity: 1 }])));
    const tag = uniqueSku('RACE').toLowerCase();
    const fresh = Array.from({ length: 40 }, (_, i) => `${tag}-${i},Race ${i},ACTIVE,${tag}-${i}-s,Small,size=S,9.00,3`);
    const recount = sold.map((p) => `,,,${p.variants[0].sku},,,7.50,2`);
    const answers = await Promise.all([
      upload(fresh),
      upload(recount),
      ...doomed.map((p) => t.admin.delete(`${API}/admin/products/${p.id}`)),
      ...buyers.map((b) => checkout(b.client, b.addressId)),
    ]);
    for (const answer of answers) assert.ok([200, 201, 204].includes(answer.status), `${answer.status} ${answer.text.slice(0, 300)}`);
  }
  assert.deepEqual(transactionRetries(t.db), retriesBefore, 'no transaction was aborted as a deadlock victim');
  assert.deepEqual(await staleDerived(t.db, { fromProductId }), consistent);
  expectStatus(await t.admin.get(`${API}/admin/products/${first.id}`), 200);
});
