import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { ROWS_PER_STATEMENT } from '../src/lib/batches.js';
import { API, createCategory, expectStatus, makeProduct, uniqueSku } from './helpers/catalog.js';
import { consistent, staleDerived } from './helpers/derived.js';
import { errorOf } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { someoneWaitsOnALock } from './helpers/lock-waits.js';
import { useApp } from './helpers/use-app.js';

/** POST /admin/imports/products: products, variants and stock from CSV, checked first, idempotent on SKU. */

const t = useApp({ as: ['CUSTOMER', 'ADMIN'] });

const HEADER =
  'product_slug,product_name,product_status,categories,sku,variant_name,options,price,cost_price,quantity_on_hand,reorder_level';
const csv = (...lines: string[]) => `${[HEADER, ...lines].join('\r\n')}\r\n`;
const upload = (body: string, mode: string, client = t.admin) =>
  client.post(`${API}/admin/imports/products?mode=${mode}`, undefined, { raw: body, headers: { 'content-type': 'text/csv' } });
async function productBySlug(slug: string) {
  const row = await t.db
    .selectFrom('products')
    .select('public_id')
    .where('slug', '=', slug)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && expectStatus(await t.admin.get(`${API}/admin/products/${row.public_id}`), 200);
}

test('a new product with variants and stock, then the same file again changes nothing', async () => {
  const category = await createCategory(t.admin, { name: `Import ${uniqueSku()}` });
  const slug = `linen-shirt-${uniqueSku().toLowerCase()}`;
  const sku = uniqueSku('SHIRT');
  const file = csv(
    `${slug},Linen Shirt,ACTIVE,${category.slug},${sku}-S,Small,size=S,45.00,20.00,10,3`,
    `${slug},,,,${sku}-M,Medium,size=M,45,,4,`,
  );
  const checked = expectStatus(await upload(file, 'validate'), 200);
  assert.deepEqual([checked.applied, checked.rows, checked.valid, checked.refused], [false, 2, 2, []]);
  assert.deepEqual(checked.stock_changes, [], "a new variant's first count is no change");
  assert.equal(await productBySlug(slug), undefined, 'validate writes nothing');

  const applied = expectStatus(await upload(file, 'all_or_nothing'), 200);
  assert.equal(applied.applied, true);
  assert.deepEqual(applied.created, { products: 1, variants: 2, stock_records: 2 });
  const product = await productBySlug(slug);
  assert.deepEqual([product.name, product.status, product.categories[0].public_id], ['Linen Shirt', 'ACTIVE', category.public_id]);
  assert.deepEqual(
    product.variants.map((v: any) => [v.sku, v.options, v.price, v.cost_price, v.inventory.quantity_on_hand, v.inventory.reorder_level]),
    [
      [`${sku}-S`, { size: 'S' }, '45.00', '20.00', 10, 3],
      [`${sku}-M`, { size: 'M' }, '45.00', null, 4, null],
    ],
  );
  assert.equal((await auditRows(t, 'product.create', product.public_id))[0]!.reason, 'CSV import');

  const again = expectStatus(await upload(file, 'all_or_nothing'), 200);
  assert.deepEqual(
    [again.applied, again.created, again.updated],
    [true, { products: 0, variants: 0, stock_records: 0 }, { products: 0, variants: 0, stock_records: 0 }],
  );
});

test('updates by SKU: a new price, a counted quantity as an adjustment, a cleared cost; untouched cells stay', async () => {
  const made = await makeProduct(t.admin, { variants: [{ price: '10.00', cost_price: '4.00', stock: 7, options: { size: 'L' } }] });
  const sku = made.variants[0].sku;
  const report = expectStatus(await upload(csv(`,,,,${sku},,,12.50,none,9,`), 'all_or_nothing'), 200);
  assert.deepEqual(report.updated, { products: 0, variants: 1, stock_records: 1 });
  const product = expectStatus(await t.admin.get(`${API}/admin/products/${made.id}`), 200);
  const variant = product.variants[0];
  assert.deepEqual(
    [variant.price, variant.cost_price, variant.options, variant.name, variant.inventory.quantity_on_hand],
    ['12.50', null, { size: 'L' }, made.variants[0].name, 9],
  );
  const [adjusted] = await auditRows(t, 'inventory.adjust', variant.public_id);
  assert.equal(adjusted!.reason, 'CSV import');
});

test('each refused row named with its line, SKU, column and reason; all or nothing writes none, valid rows the rest', async () => {
  const existing = await makeProduct(t.admin, { variants: [{ options: { size: 'S' } }] });
  const deleted = await makeProduct(t.admin, {});
  expectStatus(await t.admin.delete(`${API}/admin/products/${deleted.id}`), 204);
  const slug = `mug-${uniqueSku().toLowerCase()}`;
  const good = uniqueSku('MUG');
  const file = csv(
    `${slug},Mug,DRAFT,,${good},White,,9.00,,5,`,
    `${slug},Mug,DRAFT,,${good},White again,,9.00,,,`,
    `${slug},Cup,DRAFT,,${uniqueSku('MUG')},Black,,9.00,,,`,
    `${slug},,,no-such-category,${uniqueSku('MUG')},Blue,,9.00,,,`,
    `${existing.product.slug},,,,${uniqueSku('X')},Also S,size=S,9.00,,,`,
    `,,,,${deleted.variants[0].sku},Back,,9.00,,,`,
    `${slug},,,,${uniqueSku('MUG')},Red,,-1,,,`,
    `${slug},,,,${uniqueSku('MUG')},Green,,9.00,,,4`,
    `,,,,${uniqueSku('NEW')},Orphan,,9.00,,,`,
  );
  const report = expectStatus(await upload(file, 'all_or_nothing'), 200);
  assert.equal(report.applied, false);
  assert.deepEqual(
    report.refused.map((r: any) => `${r.line} ${r.field}`),
    ['3 sku', '4 product_name', '5 categories', '6 options', '7 sku', '8 price', '9 quantity_on_hand', '10 product_name'],
  );
  assert.ok(report.refused.every((r: any) => r.message.length > 0 && r.sku));
  assert.equal(await productBySlug(slug), undefined, 'all or nothing: nothing');

  const partial = expectStatus(await upload(file, 'valid_rows'), 200);
  assert.deepEqual([partial.applied, partial.valid, partial.created.variants], [true, 1, 1]);
  const mug = await productBySlug(slug);
  assert.deepEqual(
    mug.variants.map((v: any) => v.sku),
    [good],
  );
});

test('a file that is not this format is refused whole with 400; staff only; size-bounded', async () => {
  for (const body of [
    '',
    'sku\r\n',
    'sku,colour\r\nA,red\r\n',
    'name,price\r\nA,1\r\n',
    'sku,sku\r\nA,A\r\n',
    'sku,price\r\n"unclosed,1\r\n',
  ]) {
    const error = errorOf(await upload(body, 'validate'));
    assert.equal(error.code, 'VALIDATION_ERROR', body);
  }
  assert.equal(errorOf(await upload(csv('a,b'), 'perhaps')).code, 'VALIDATION_ERROR');
  assert.equal(errorOf(await upload(csv(`,,,,${uniqueSku()},A,,1.00,,,`), 'validate', t.customer)).code, 'FORBIDDEN');
  const json = await t.admin.post(`${API}/admin/imports/products?mode=validate`, { sku: 'x' });
  assert.equal(errorOf(json).code, 'VALIDATION_ERROR', 'a JSON body is not a file');
  assert.equal(
    errorOf(await t.admin.post(`${API}/cart/items`, undefined, { raw: 'a,b', headers: { 'content-type': 'text/csv' } })).code,
    'UNSUPPORTED_MEDIA_TYPE',
  );
  // A file saved as Latin-1 (as spreadsheets often do): refused with its line, not imported with "Caf\uFFFD" names.
  const sku = uniqueSku();
  const latin1 = Buffer.from(csv(`,Caf\u00e9 cr\u00e8me,,,${sku},A,,1.00,,,`), 'latin1');
  const garbled = await t.admin.post(`${API}/admin/imports/products?mode=all_or_nothing`, undefined, {
    raw: latin1,
    headers: { 'content-type': 'text/csv' },
  });
  const refused = errorOf(garbled);
  assert.equal(refused.code, 'VALIDATION_ERROR', garbled.text);
  assert.match(refused.message, /not UTF-8 text \(line 2\)/);
  assert.equal((await t.db.selectFrom('variants').select('id').where('sku', '=', sku).execute()).length, 0, 'nothing imported');
  const huge = `sku,variant_name\r\n${'X'.repeat(6 * 1024 * 1024)},y\r\n`;
  assert.equal(errorOf(await upload(huge, 'validate')).code, 'PAYLOAD_TOO_LARGE');
});

test('a stock count: SKUs and counted quantities, each change an adjustment with the count as its reason', async () => {
  const made = await makeProduct(t.admin, { variants: [{ stock: 5 }, { stock: 2 }, {}] });
  const [a, b, c] = made.variants as { sku: string; public_id: string }[];
  const file = `sku,quantity_on_hand\r\n${a!.sku},7\r\n${b!.sku},2\r\n${c!.sku},4\r\n`;
  const response = await t.admin.post(
    `${API}/admin/imports/products?mode=all_or_nothing&reason=${encodeURIComponent('Count 2026-11')}`,
    undefined,
    {
      raw: file,
      headers: { 'content-type': 'text/csv' },
    },
  );
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(
    [response.body.data.updated.stock_records, response.body.data.created.stock_records, response.body.data.updated.variants],
    [1, 1, 0],
  );
  const [adjusted] = await auditRows(t, 'inventory.adjust', a!.public_id);
  assert.equal(adjusted!.reason, 'Count 2026-11');
  assert.equal((await auditRows(t, 'inventory.adjust', b!.public_id)).length, 0, 'an unchanged count is no adjustment');
  assert.equal(expectStatus(await t.admin.get(`${API}/admin/inventory/${c!.public_id}`), 200).quantity_on_hand, 4);
});

test('a stock count is refused in its own words: a negative count is below 0, an unknown SKU is not in the catalog', async () => {
  const made = await makeProduct(t.admin, { variants: [{ stock: 5 }, { stock: 2 }] });
  const [a, b] = made.variants as { sku: string }[];
  const unknown = uniqueSku('NOPE');
  const file = `sku,quantity_on_hand,reorder_level\r\n${a!.sku},-3,\r\n${unknown},4,\r\n${b!.sku},two,-1\r\n`;
  const report = expectStatus(await upload(file, 'validate'), 200);
  assert.deepEqual(
    report.refused.map((r: any) => [r.line, r.sku, r.field, r.message]),
    [
      [2, a!.sku, 'quantity_on_hand', 'must be 0 or more'],
      [3, unknown, 'sku', 'is not in the catalog: a stock count only updates existing variants'],
      [4, b!.sku, 'quantity_on_hand', 'must be a whole number, 0 or more'],
      [4, b!.sku, 'reorder_level', 'must be 0 or more'],
    ],
  );
  // A row that gives a new variant's fields is still told what a new variant needs.
  const partial = expectStatus(await upload(csv(`,,,,${unknown},Blue,,,,4,`), 'validate'), 200);
  assert.deepEqual(
    partial.refused.map((r: any) => [r.field, r.message]),
    [['price', 'is needed for a new variant']],
  );
});

test('a refused cell is told what its column takes, in words, with the allowed values of the schema', async () => {
  const long = 'N'.repeat(201);
  const file = [
    'product_slug,product_name,product_status,sku,variant_name,options,price,compare_at_price,variant_status,categories',
    `Linen Shirt,${long},SOLDOUT,${uniqueSku('W')},Small,size,abc,x,GONE,Shirts`,
    `,,,,Nameless,,9.00,,,`,
    `,,,-${uniqueSku('W')},Blue,,9.00,,,`,
  ].join('\r\n');
  const report = expectStatus(await upload(file, 'validate'), 200);
  assert.deepEqual(
    report.refused.map((r: any) => [r.line, r.field, r.message]),
    [
      [2, 'product_slug', 'must be lowercase letters, digits and single hyphens, like linen-shirt, up to 120 characters'],
      [2, 'product_name', 'must be at most 200 characters (this one has 201)'],
      [2, 'product_status', 'must be one of DRAFT, ACTIVE, ARCHIVED'],
      [2, 'categories', 'must be up to 20 category slugs separated by |, each once (like shirts|summer)'],
      [
        2,
        'options',
        'must be up to 10 name=value pairs separated by ; (like size=M; colour=Blue), each name of 1 to 50 characters and each value of 1 to 100',
      ],
      [2, 'price', 'must be a price like 19.99 (a dot before the cents, no currency sign)'],
      [2, 'compare_at_price', 'must be a price like 19.99 (a dot before the cents, no currency sign), or none'],
      [2, 'variant_status', 'must be one of ACTIVE, INACTIVE'],
      [3, 'sku', 'is needed on every row'],
      [4, 'sku', 'must be letters, digits, dots, underscores, slashes or hyphens, starting with a letter or digit, up to 80 characters'],
    ],
  );
});

test('the check previews a stock count: each SKU whose quantity on hand changes, with the count now and the new one', async () => {
  const made = await makeProduct(t.admin, { variants: [{ stock: 5 }, { stock: 2 }, {}] });
  const [a, b, c] = made.variants as { sku: string }[];
  const file = `sku,quantity_on_hand\r\n${a!.sku},7\r\n${b!.sku},2\r\n${c!.sku},4\r\n`;
  const checked = expectStatus(await upload(file, 'validate'), 200);
  assert.deepEqual(checked.stock_changes, [
    { line: 2, sku: a!.sku, on_hand_now: 5, on_hand_new: 7 },
    { line: 4, sku: c!.sku, on_hand_now: null, on_hand_new: 4 },
  ]);
  const applied = expectStatus(await upload(file, 'all_or_nothing'), 200);
  assert.deepEqual(applied.updated.stock_records + applied.created.stock_records, checked.stock_changes.length);
  assert.deepEqual(expectStatus(await upload(file, 'validate'), 200).stock_changes, [], 'counted again: nothing changes');
});

test('a file of refused rows, fixed, imports back: its refused_because column is read past', async () => {
  const sku = uniqueSku('FIX');
  const slug = `fixed-${sku.toLowerCase()}`;
  const file = `product_slug,product_name,sku,variant_name,price,refused_because\r\n${slug},Fixed,${sku},One,9.50,"price: must be a price like 19.99"\r\n`;
  const report = expectStatus(await upload(file, 'all_or_nothing'), 200);
  assert.deepEqual([report.applied, report.refused, report.created.variants], [true, [], 1]);
  assert.equal((await productBySlug(slug)).variants[0].price, '9.50');
});

test('a file longer than one statement batch: every row written, every derived store kept, each product reported once as created, then as updated', async () => {
  const category = await createCategory(t.admin, { name: `Import batch ${uniqueSku()}` });
  const tag = uniqueSku('BATCH').toLowerCase();
  const PRODUCTS = Math.ceil((ROWS_PER_STATEMENT + 1) / 3);
  const file = (price: (p: number) => string, stock: number) =>
    csv(
      ...Array.from({ length: PRODUCTS }, (_, p) =>
        ['S', 'M', 'L'].map(
          (size) =>
            `${tag}-${p},Batch ${p},ACTIVE,${category.slug},${tag}-${p}-${size},Size ${size},size=${size},${price(p)},5.00,${stock},2`,
        ),
      ).flat(),
    );
  const events = async (type: string) =>
    (
      await t.db
        .selectFrom('events')
        .select(['ordering_key', 'payload'])
        .where('type', '=', type)
        .where('ordering_key', 'in', madeIds)
        .execute()
    ).map((e) => ({ product: e.ordering_key, variants: (e.payload as any).product.variants.map((v: any) => v.price) }));
  let madeIds: string[] = ['none'];

  const created = expectStatus(
    await upload(
      file(() => '10.00', 6),
      'all_or_nothing',
    ),
    200,
  );
  assert.deepEqual(created.created, { products: PRODUCTS, variants: PRODUCTS * 3, stock_records: PRODUCTS * 3 });
  const made = await t.db.selectFrom('products').select(['id', 'public_id']).where('slug', 'like', `${tag}-%`).orderBy('id').execute();
  madeIds = made.map((p) => p.public_id);
  assert.equal(made.length, PRODUCTS);
  assert.deepEqual(await staleDerived(t.db, { fromProductId: made[0]!.id }), consistent);
  const reported = await events('product.created');
  assert.equal(reported.length, PRODUCTS, 'one product.created per new product');
  assert.ok(
    reported.every((e) => e.variants.join() === '10.00,10.00,10.00'),
    'each as it stands after the import, with its variants',
  );
  const product = expectStatus(await t.admin.get(`${API}/admin/products/${madeIds[7]}`), 200);
  assert.deepEqual(
    product.variants.map((v: any) => [v.sku, v.inventory.quantity_on_hand, v.inventory.reorder_level]),
    ['S', 'M', 'L'].map((size) => [`${tag}-7-${size}`, 6, 2]),
  );
  assert.equal((await auditRows(t, 'inventory.create', product.variants[2].public_id)).length, 1);

  // One product's prices move and every count changes: one product.updated, every record adjusted.
  const repriced = expectStatus(
    await upload(
      file((p) => (p === 7 ? '12.00' : '10.00'), 9),
      'all_or_nothing',
    ),
    200,
  );
  assert.deepEqual(
    [repriced.created, repriced.updated],
    [
      { products: 0, variants: 0, stock_records: 0 },
      { products: 0, variants: 3, stock_records: PRODUCTS * 3 },
    ],
  );
  assert.deepEqual(await events('product.updated'), [{ product: madeIds[7], variants: ['12.00', '12.00', '12.00'] }]);
  assert.deepEqual(await staleDerived(t.db, { fromProductId: made[0]!.id }), consistent);
  const [adjusted] = await auditRows(t, 'inventory.adjust', product.variants[0].public_id);
  assert.deepEqual([adjusted!.reason, (adjusted!.changes as any).after.quantity_on_hand], ['CSV import', 9]);
  const movements = await t.db
    .selectFrom('inventory_movements as m')
    .innerJoin('inventory as i', 'i.id', 'm.inventory_id')
    .select(['m.kind', 'm.delta_on_hand', 'm.on_hand_after'])
    .where('i.variant_public_id', '=', product.variants[0].public_id)
    .orderBy('m.id')
    .execute();
  assert.deepEqual(
    movements.map((m) => [m.kind, m.delta_on_hand, m.on_hand_after]),
    [
      ['CREATE', 6, 6],
      ['ADJUST', 3, 9],
    ],
  );

  // The same file again: nothing written, nothing reported.
  const before = await events('product.updated');
  const again = expectStatus(
    await upload(
      file((p) => (p === 7 ? '12.00' : '10.00'), 9),
      'all_or_nothing',
    ),
    200,
  );
  assert.deepEqual(again.updated, { products: 0, variants: 0, stock_records: 0 });
  assert.deepEqual(await events('product.updated'), before);
});

test('an edit committed while an import waits for its locks is kept: the import changes only what its file changes', async () => {
  const made = await makeProduct(t.admin, { variants: [{ price: '10.00', stock: 5 }] });
  const variant = made.variants[0];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  // Holds the product's row, so the import plans (reading the variant as it is) and then waits for the lock.
  const editor = t.db.transaction().execute(async (trx) => {
    await sql`SELECT id FROM products WHERE public_id = ${made.id} FOR NO KEY UPDATE`.execute(trx);
    locked();
    await released;
    await sql`UPDATE variants SET status = 'INACTIVE', compare_at_price = 19.00 WHERE public_id = ${variant.public_id}`.execute(trx);
  });
  await isLocked;
  const importing = upload(csv(`,,,,${variant.sku},,,12.00,,,`), 'all_or_nothing');
  await someoneWaitsOnALock(t.db);
  release();
  await editor;
  const report = expectStatus(await importing, 200);
  assert.deepEqual(report.updated, { products: 0, variants: 1, stock_records: 0 });
  const after = expectStatus(await t.admin.get(`${API}/admin/products/${made.id}`), 200).variants[0];
  assert.deepEqual([after.price, after.status, after.compare_at_price], ['12.00', 'INACTIVE', '19.00']);
  const [audited] = await auditRows(t, 'variant.update', variant.public_id);
  assert.deepEqual([(audited!.changes as any).before.status, (audited!.changes as any).before.compare_at_price], ['INACTIVE', '19.00']);
});
