import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, createProduct, createVariant, expectStatus, uniqueSku } from './helpers/catalog.js';
import { errorOf } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

/** POST /admin/products/{prd}/variants/batch: every size × colour in one step, with stock, all or none. */

const t = useApp({ as: ['ADMIN'] });
const newProduct = async () => (await createProduct(t.admin, { name: `Tee ${uniqueSku()}`, status: 'ACTIVE' })).public_id as string;
const batch = (product: string, variants: Record<string, unknown>[]) =>
  t.admin.post(`${API}/admin/products/${product}/variants/batch`, { variants });
const variantsOf = async (product: string) => expectStatus(await t.admin.get(`${API}/admin/products/${product}`), 200).variants as any[];

test('every combination made with its price and stock; each variant and record audited', async () => {
  const product = await newProduct();
  const base = uniqueSku('TEE');
  const combos = ['S', 'M'].flatMap((size) => ['Red', 'Blue'].map((colour) => ({ size, colour })));
  const response = await batch(
    product,
    combos.map((options, i) => ({
      sku: `${base}-${options.size}-${options.colour}`,
      name: `${options.size} / ${options.colour}`,
      options,
      price: options.size === 'M' ? '22.00' : '20.00',
      stock: { quantity_on_hand: i + 1, reorder_level: 2 },
    })),
  );
  assert.equal(response.status, 201, response.text);
  const variants = response.body.data.variants as any[];
  assert.deepEqual(
    variants.map((v) => [v.name, v.price, v.inventory?.quantity_on_hand, v.inventory?.reorder_level]),
    [
      ['S / Red', '20.00', 1, 2],
      ['S / Blue', '20.00', 2, 2],
      ['M / Red', '22.00', 3, 2],
      ['M / Blue', '22.00', 4, 2],
    ],
  );
  assert.equal(response.body.data.price_min, '20.00');
  for (const v of variants) {
    assert.equal((await auditRows(t, 'variant.create', v.public_id)).length, 1);
    assert.equal((await auditRows(t, 'inventory.create', v.public_id)).length, 1);
  }
  // Subscribers hear of the new variants once, with the product as it now stands.
  const reported = await t.db
    .selectFrom('events')
    .select('payload')
    .where('type', '=', 'product.updated')
    .where('ordering_key', '=', product)
    .execute();
  assert.deepEqual(
    reported.map((e) => (e.payload as any).product.variants.length),
    [4],
  );
});

test('one bad item refuses the batch, naming it, and nothing is made', async () => {
  const product = await newProduct();
  const existing = await createVariant(t.admin, product, { sku: uniqueSku('OLD'), name: 'L', price: '9.00', options: { size: 'L' } });
  const ok = (size: string) => ({ sku: uniqueSku(size), name: size, price: '10.00', options: { size }, stock: { quantity_on_hand: 3 } });
  const cases: [Record<string, unknown>[], string, string][] = [
    [[ok('S'), { ...ok('M'), sku: existing.sku.toLowerCase() }], 'SKU_TAKEN', 'variants.1.sku'],
    [[ok('S'), { ...ok('M'), options: { size: 'L' } }], 'VARIANT_OPTIONS_TAKEN', 'variants.1.options'],
    [[ok('S'), { ...ok('M'), options: { size: 'S' } }], 'VARIANT_OPTIONS_TAKEN', 'variants.1.options'],
    [[ok('S'), { ...ok('M'), sku: 'dup-1' }, { ...ok('XL'), sku: 'DUP-1' }], 'VALIDATION_ERROR', 'variants.2.sku'],
    [[ok('S'), { ...ok('M'), price: '-1.00' }], 'VALIDATION_ERROR', 'variants.1.price'],
  ];
  for (const [items, code, field] of cases) {
    const error = errorOf(await batch(product, items));
    assert.equal(error.code, code, JSON.stringify(items).slice(0, 100));
    assert.ok(
      error.details?.some((d) => d.field === field),
      `${code}: ${JSON.stringify(error.details)}`,
    );
  }
  assert.deepEqual(
    (await variantsOf(product)).map((v) => v.sku),
    [existing.sku],
  );
  assert.equal(errorOf(await batch('prd_missing00000000000000', [ok('S')])).code, 'NOT_FOUND');
});
