import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkout, sellableVariant, shopper, tag } from './helpers/commerce.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** GET /admin/search: the console's one box for an order number, a SKU, an email or a name. */

let made: { productId: string; variantId: string; sku: string; orderId: string; orderNumber: string; email: string; name: string };

const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0' },
  as: ['CUSTOMER', 'ADMIN'],
  seed: async (t) => {
    const name = `Walnut Desk ${tag()}`;
    const { productId, variantId } = await sellableVariant(t.admin, { name });
    const variant = await t.admin.get(`/api/v1/admin/products/${productId}`);
    const sku = variant.body.data.variants[0].sku as string;
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const order = await checkout(buyer.client, buyer.addressId);
    assert.equal(order.status, 201, order.text);
    made = {
      productId,
      variantId,
      sku,
      orderId: order.body.data.public_id,
      orderNumber: order.body.data.order_number,
      email: buyer.email,
      name,
    };
  },
});

const search = (q: string) => t.admin.get(`/api/v1/admin/search?q=${encodeURIComponent(q)}`);

test('an order number names that order outright', async () => {
  const { body } = await search(made.orderNumber.toLowerCase());
  assert.deepEqual(body.data.exact, { kind: 'order', public_id: made.orderId });
  assert.equal(body.data.orders.data[0].public_id, made.orderId);
});

test('a SKU names its variant and product; an email names the account and finds its orders', async () => {
  const bySku = await search(made.sku);
  assert.deepEqual(bySku.body.data.exact, { kind: 'variant', public_id: made.variantId, product_public_id: made.productId });
  const byEmail = await search(made.email.toUpperCase());
  assert.equal(byEmail.body.data.exact.kind, 'user');
  assert.equal(byEmail.body.data.users.data[0].email, made.email);
  assert.ok(byEmail.body.data.orders.data.some((o: { public_id: string }) => o.public_id === made.orderId));
});

test("a product's whole name names it outright, unless two products found share it", async () => {
  const { body } = await search(made.name.toUpperCase());
  assert.deepEqual(body.data.exact, { kind: 'product', public_id: made.productId });
  const twin = `Oak Stool ${tag()}`;
  await sellableVariant(t.admin, { name: twin });
  await sellableVariant(t.admin, { name: twin });
  const both = await search(twin);
  assert.equal(both.body.data.exact, null);
  assert.equal(both.body.data.products.total, 2);
});

test('part of a name lists what matches, at most five of each with the total, and names nothing outright', async () => {
  const { body } = await search(made.name.split(' ').slice(0, 2).join(' '));
  assert.equal(body.data.exact, null);
  assert.ok(body.data.products.data.some((p: { public_id: string }) => p.public_id === made.productId));
  for (const kind of ['orders', 'products', 'users'] as const) {
    assert.ok(body.data[kind].data.length <= 5);
    assert.ok(body.data[kind].total >= body.data[kind].data.length);
  }
  const nothing = await search(`no-such-thing-${tag()}`);
  assert.deepEqual(
    [nothing.body.data.exact, nothing.body.data.orders.total, nothing.body.data.products.total, nothing.body.data.users.total],
    [null, 0, 0, 0],
  );
});

test('staff only; an empty or over-long text is 400', async () => {
  assert.equal(errorOf(await t.customer.get('/api/v1/admin/search?q=x')).code, 'FORBIDDEN');
  assert.equal(errorOf(await t.admin.get('/api/v1/admin/search?q=')).code, 'VALIDATION_ERROR');
  assert.equal(errorOf(await t.admin.get('/api/v1/admin/search')).code, 'VALIDATION_ERROR');
  assert.equal(errorOf(await search('x'.repeat(201))).code, 'VALIDATION_ERROR');
});
