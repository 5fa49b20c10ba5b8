import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { API, createInventory, createVariant, expectStatus, makeProduct, uniqueSku } from './helpers/catalog.js';
import { useApp } from './helpers/use-app.js';

/**
 * The unfiltered storefront list and the admin inventory's default view read
 * their totals from counters the database keeps (src/db/DERIVED.md).
 * Whatever the catalog goes through, the totals the lists report must equal
 * real counts.
 */

const t = useApp({ as: ['ADMIN'] });

async function counted(): Promise<number> {
  const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM products WHERE status = 'ACTIVE' AND deleted_at IS NULL`.execute(
    t.db,
  );
  return row.rows[0]!.n;
}

async function reported(): Promise<number> {
  const response = await t.client().get(`${API}/products?limit=1`);
  assert.equal(response.status, 200, response.text);
  return response.body.meta.total as number;
}

async function expectInStep(step: string) {
  assert.equal(await reported(), await counted(), step);
}

describe('storefront total', () => {
  test('follows products into and out of the storefront', async () => {
    const before = await reported();
    const active = await makeProduct(t.admin, { status: 'ACTIVE' });
    const draft = await makeProduct(t.admin, { status: 'DRAFT' });
    await expectInStep('after creating one ACTIVE and one DRAFT product');
    assert.equal(await reported(), before + 1);

    expectStatus(await t.admin.patch(`${API}/admin/products/${draft.id}`, { status: 'ACTIVE' }), 200);
    await expectInStep('after activating the draft');
    assert.equal(await reported(), before + 2);

    expectStatus(await t.admin.patch(`${API}/admin/products/${active.id}`, { status: 'ARCHIVED' }), 200);
    await expectInStep('after archiving');

    expectStatus(await t.admin.patch(`${API}/admin/products/${active.id}`, { name: 'Renamed while archived' }), 200);
    await expectInStep('after an edit that does not change visibility');

    expectStatus(await t.admin.delete(`${API}/admin/products/${draft.id}`), 204);
    await expectInStep('after deleting an ACTIVE product');
    assert.equal(await reported(), before);
  });

  test('a refused write leaves the total alone', async () => {
    const product = await makeProduct(t.admin, { status: 'ACTIVE' });
    const total = await reported();
    const response = await t.admin.patch(`${API}/admin/products/${product.id}`, { status: 'SOLD_OUT' });
    assert.equal(response.status, 400, response.text);
    assert.equal(await reported(), total);
    await expectInStep('after a refused status');
  });

  test('stays exact when many products change at once', async () => {
    const products = await Promise.all(Array.from({ length: 12 }, () => makeProduct(t.admin, { status: 'DRAFT' })));
    // Racing activations, archivals and deletions of different products.
    const responses = await Promise.all(
      products.map((p, i) =>
        i % 3 === 0
          ? t.admin.patch(`${API}/admin/products/${p.id}`, { status: 'ACTIVE' })
          : i % 3 === 1
            ? t.admin.patch(`${API}/admin/products/${p.id}`, { status: 'ARCHIVED' })
            : t.admin.delete(`${API}/admin/products/${p.id}`),
      ),
    );
    for (const response of responses) assert.ok(response.status === 200 || response.status === 204, response.text);
    await expectInStep('after concurrent changes');
  });

  test('a set-based write is counted once per statement', async () => {
    await sql`UPDATE products SET status = 'ARCHIVED' WHERE status = 'ACTIVE' AND deleted_at IS NULL`.execute(t.db);
    assert.equal(await reported(), 0);
    await sql`UPDATE products SET status = 'ACTIVE' WHERE status = 'ARCHIVED' AND deleted_at IS NULL`.execute(t.db);
    await expectInStep('after archiving and restoring everything in two statements');
    assert.ok((await reported()) > 0);
  });
});

describe('inventory total', () => {
  async function countedRecords(): Promise<number> {
    const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM inventory WHERE NOT variant_deleted`.execute(t.db);
    return row.rows[0]!.n;
  }
  async function reportedRecords(): Promise<number> {
    const response = await t.admin.get(`${API}/admin/inventory?limit=1`);
    assert.equal(response.status, 200, response.text);
    return response.body.meta.total as number;
  }

  test('follows records as variants come and go, not as stock moves', async () => {
    const start = await reportedRecords();
    assert.equal(start, await countedRecords());
    const { id, variants } = await makeProduct(t.admin, { variants: [{ stock: 5 }, { stock: 7 }] });
    assert.equal(await reportedRecords(), start + 2);

    const extra = await createVariant(t.admin, id, { sku: uniqueSku(), name: 'Extra', price: '3.00' });
    await createInventory(t.admin, extra.public_id, 1);
    assert.equal(await reportedRecords(), start + 3);

    // Stock changes write inventory rows but never the count.
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${variants[0].public_id}`, { quantity_change: 4, reason: 'recount' }), 200);
    assert.equal(await reportedRecords(), start + 3);

    expectStatus(await t.admin.delete(`${API}/admin/variants/${extra.public_id}`), 204);
    assert.equal(await reportedRecords(), start + 2);
    assert.equal(await reportedRecords(), await countedRecords());

    // Deleted records are still listed on request, counted the slow way.
    const all = await t.admin.get(`${API}/admin/inventory?limit=1&include_deleted=true`);
    const everything = await sql<{ n: number }>`SELECT count(*)::int AS n FROM inventory`.execute(t.db);
    assert.equal(all.body.meta.total, everything.rows[0]!.n);
  });
});

describe("the inventory search's product names and counts", () => {
  /** Products whose kept name or count (inventory_products) differs from the product's name or a real count of its live records. */
  async function driftedProducts(): Promise<string[]> {
    const rows = await sql<{ public_id: string }>`
      SELECT p.public_id FROM products p LEFT JOIN inventory_products ip ON ip.product_id = p.id
      WHERE ip.name IS DISTINCT FROM p.name
         OR ip.live_records IS DISTINCT FROM (SELECT count(*)::int FROM inventory i JOIN variants v ON v.id = i.variant_id
                                              WHERE v.product_id = p.id AND NOT i.variant_deleted)`.execute(t.db);
    return rows.rows.map((r) => r.public_id);
  }
  const kept = async (publicId: string) =>
    (
      await sql<{
        n: number;
      }>`SELECT ip.live_records AS n FROM inventory_products ip JOIN products p ON p.id = ip.product_id WHERE p.public_id = ${publicId}`.execute(
        t.db,
      )
    ).rows[0]!.n;

  test('follow records and variant deletions, not stock moves', async () => {
    const { id, variants } = await makeProduct(t.admin, { variants: [{ stock: 5 }, { stock: 7 }, {}] });
    assert.equal(await kept(id), 2);
    await createInventory(t.admin, variants[2].public_id, 1);
    assert.equal(await kept(id), 3);
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${variants[0].public_id}`, { quantity_change: -5, reason: 'sold out' }), 200);
    assert.equal(await kept(id), 3);
    expectStatus(await t.admin.delete(`${API}/admin/variants/${variants[1].public_id}`), 204);
    assert.equal(await kept(id), 2);
    expectStatus(await t.admin.patch(`${API}/admin/products/${id}`, { name: `Renamed ${uniqueSku()}` }), 200);
    assert.deepEqual(await driftedProducts(), []);
    expectStatus(await t.admin.delete(`${API}/admin/products/${id}`), 204);
    assert.equal(await kept(id), 0);
    assert.deepEqual(await driftedProducts(), []);
  });

  test('a set-based write is counted per product', async () => {
    const a = await makeProduct(t.admin, { variants: [{ stock: 1 }, { stock: 1 }] });
    const b = await makeProduct(t.admin, { variants: [{ stock: 1 }] });
    await sql`UPDATE variants SET deleted_at = now() WHERE product_id IN (SELECT id FROM products WHERE public_id IN (${a.id}, ${b.id}))`.execute(
      t.db,
    );
    assert.deepEqual([await kept(a.id), await kept(b.id)], [0, 0]);
    await sql`UPDATE variants SET deleted_at = NULL WHERE product_id IN (SELECT id FROM products WHERE public_id IN (${a.id}, ${b.id}))`.execute(
      t.db,
    );
    assert.deepEqual([await kept(a.id), await kept(b.id)], [2, 1]);
    assert.deepEqual(await driftedProducts(), []);
  });
});
