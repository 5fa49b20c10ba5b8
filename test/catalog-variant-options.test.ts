import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, createProduct, createVariant, expectStatus, uniqueSku } from './helpers/catalog.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** Two live variants of one product may not have the same option values: a shopper could not tell them apart. */

const t = useApp({ as: ['ADMIN'] });

const newProduct = async () => (await createProduct(t.admin, { name: `Tee ${uniqueSku()}`, status: 'ACTIVE' })).public_id as string;
const postVariant = (product: string, body: Record<string, unknown>) =>
  t.admin.post(`${API}/admin/products/${product}/variants`, { sku: uniqueSku(), name: 'V', price: '10.00', ...body });
const variantCount = async (product: string) =>
  (expectStatus(await t.admin.get(`${API}/admin/products/${product}`), 200).variants as unknown[]).length;

test('a second variant with the same option values is 409 VARIANT_OPTIONS_TAKEN naming the first, whatever the key order', async () => {
  const product = await newProduct();
  const first = await createVariant(t.admin, product, {
    sku: uniqueSku('TEE-S-RED'),
    name: 'S / Red',
    price: '10.00',
    options: { size: 'S', colour: 'Red' },
  });
  const refused = await postVariant(product, { options: { colour: 'Red', size: 'S' } });
  assert.equal(refused.status, 409, refused.text);
  const error = errorOf(refused);
  assert.equal(error.code, 'VARIANT_OPTIONS_TAKEN');
  assert.equal(error.details?.[0]?.field, 'options');
  assert.match(error.details?.[0]?.message ?? '', new RegExp(first.sku));
  assert.equal(await variantCount(product), 1, 'nothing was created');
  // Another value, or the same values on another product, are fine.
  expectStatus(await postVariant(product, { options: { colour: 'Red', size: 'M' } }), 201);
  expectStatus(await postVariant(await newProduct(), { options: { size: 'S', colour: 'Red' } }), 201);
});

test('variants without options are told apart by name; a deleted variant frees its values', async () => {
  const product = await newProduct();
  expectStatus(await postVariant(product, { name: 'Small' }), 201);
  expectStatus(await postVariant(product, { name: 'Large' }), 201);
  const doomed = await createVariant(t.admin, product, { sku: uniqueSku(), name: 'XL', price: '10.00', options: { size: 'XL' } });
  expectStatus(await t.admin.delete(`${API}/admin/variants/${doomed.public_id}`), 204);
  expectStatus(await postVariant(product, { options: { size: 'XL' } }), 201);
});

test("an update onto another variant's values is refused; keeping its own values is not", async () => {
  const product = await newProduct();
  await createVariant(t.admin, product, { sku: uniqueSku(), name: 'S', price: '10.00', options: { size: 'S' } });
  const m = await createVariant(t.admin, product, { sku: uniqueSku(), name: 'M', price: '10.00', options: { size: 'M' } });
  const refused = await t.admin.patch(`${API}/admin/variants/${m.public_id}`, { options: { size: 'S' } });
  assert.equal(errorOf(refused).code, 'VARIANT_OPTIONS_TAKEN');
  const kept = expectStatus(await t.admin.patch(`${API}/admin/variants/${m.public_id}`, { options: { size: 'M' }, price: '11.00' }), 200);
  assert.equal(kept.price, '11.00');
  assert.deepEqual(kept.options, { size: 'M' });
});

test('racing creates of the same values: exactly one is created, the rest are 409', async () => {
  const product = await newProduct();
  const answers = await Promise.all(Array.from({ length: 12 }, () => postVariant(product, { options: { size: 'L', fit: 'Slim' } })));
  const statuses = answers.map((answer) => answer.status).sort();
  assert.deepEqual(statuses, [201, ...Array<number>(11).fill(409)]);
  assert.ok(answers.filter((a) => a.status === 409).every((a) => errorOf(a).code === 'VARIANT_OPTIONS_TAKEN'));
  assert.equal(await variantCount(product), 1);
});
