import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { makeProduct, uniqueSku } from './helpers/catalog.js';
import { sellableVariant } from './helpers/commerce.js';
import { signUp, type Client } from './helpers/factories.js';
import { API, fails, internalUserId, ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' }, as: ['ADMIN'] });

const CART = `${API}/cart`;
const ITEMS = `${API}/cart/items`;
const add = (client: Client, variant: string, quantity: unknown) => client.post(ITEMS, { variant_public_id: variant, quantity });
const unknownVariant = () => `var_${randomBytes(12).toString('base64url')}`;

/** The account's cart rows straight from the database, by variant public ID. */
async function cartRows(client: { user: { public_id: string } }) {
  const userId = await internalUserId(t, client.user.public_id);
  const rows = await t.db
    .selectFrom('cart_items as ci')
    .innerJoin('variants as v', 'v.id', 'ci.variant_id')
    .select(['v.public_id', 'ci.quantity'])
    .where('ci.user_id', '=', userId)
    .orderBy('v.public_id')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.public_id, r.quantity]));
}

describe('POST /cart/availability', () => {
  // As a storefront asks it for a visitor's cart: no session, no CSRF token.
  const ask = (items: unknown) =>
    fetch(`${t.baseUrl}${API}/cart/availability`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });

  test('says of each line what a cart line would: enough, how many when short, nothing of what is not on sale', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 65 });
    const inactive = (await makeProduct(t.admin, { variants: [{ status: 'INACTIVE', stock: 5 }] })).variants[0]!.public_id as string;
    const missing = unknownVariant();
    const response = await ask([
      { variant_public_id: variantId, quantity: 65 },
      { variant_public_id: variantId, quantity: 500 },
      { variant_public_id: inactive, quantity: 1 },
      { variant_public_id: missing, quantity: 1 },
      { variant_public_id: 'not-an-id', quantity: 1 },
    ]);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { data: { items: unknown[] } };
    assert.deepEqual(body.data.items, [
      { variant_public_id: variantId, available: true, quantity_available: null },
      { variant_public_id: variantId, available: false, quantity_available: 65 },
      { variant_public_id: inactive, available: false, quantity_available: null },
      { variant_public_id: missing, available: false, quantity_available: null },
      { variant_public_id: 'not-an-id', available: false, quantity_available: null },
    ]);
  });

  test('bounded: 1 to 50 lines of 1 to 999 each', async () => {
    const { variantId } = await sellableVariant(t.admin);
    for (const items of [
      [],
      Array.from({ length: 51 }, () => ({ variant_public_id: variantId, quantity: 1 })),
      [{ variant_public_id: variantId, quantity: 0 }],
      [{ variant_public_id: variantId, quantity: 1000 }],
    ]) {
      const response = await ask(items);
      assert.equal(response.status, 400, JSON.stringify(items).slice(0, 80));
    }
  });
});

describe('GET /cart', () => {
  test('a new account has an empty cart (200, not 404) in the store currency', async () => {
    const { client } = await signUp(t);
    const cart = ok(await client.get(CART));
    assert.deepEqual(cart, { items: [], subtotal: '0.00', currency: 'USD', item_count: 0 });
  });

  test('anonymous requests get 401 on every cart operation', async () => {
    const anonymous = t.client();
    const { variantId } = await sellableVariant(t.admin);
    fails(await anonymous.get(CART), 401, 'UNAUTHENTICATED');
    fails(await add(anonymous, variantId, 1), 401, 'UNAUTHENTICATED');
    fails(await anonymous.patch(`${ITEMS}/${variantId}`, { quantity: 2 }), 401, 'UNAUTHENTICATED');
    fails(await anonymous.delete(`${ITEMS}/${variantId}`), 401, 'UNAUTHENTICATED');
    fails(await anonymous.delete(CART), 401, 'UNAUTHENTICATED');
  });
});

describe('POST /cart/items', () => {
  test('adding answers 200 with the whole cart, every line field exact', async () => {
    const sku = uniqueSku();
    const {
      variants,
      id: productId,
      product,
    } = await makeProduct(t.admin, {
      name: 'Linen Shirt',
      variants: [{ sku, price: '19.99', options: { size: 'M', colour: 'Blue' }, stock: 10 }],
    });
    const other = await sellableVariant(t.admin, { price: '5.01' });
    const account = await signUp(t);

    ok(await add(account.client, variants[0].public_id, 3));
    const cart = ok(await add(account.client, other.variantId, 1));

    assert.equal(product.name, 'Linen Shirt');
    assert.deepEqual(cart.items[0], {
      variant_public_id: variants[0].public_id,
      product_public_id: productId,
      product_name: 'Linen Shirt',
      sku,
      options: { size: 'M', colour: 'Blue' },
      unit_price: '19.99',
      quantity: 3,
      line_total: '59.97',
      available: true,
      quantity_available: null,
    });
    assert.equal(cart.items.length, 2);
    assert.equal(cart.items[1].variant_public_id, other.variantId);
    assert.equal(cart.items[1].line_total, '5.01');
    assert.equal(cart.subtotal, '64.98');
    assert.equal(cart.item_count, 4);
    assert.equal(cart.currency, 'USD');
    assert.deepEqual(ok(await account.client.get(CART)), cart);
    assert.deepEqual(await cartRows(account), { [variants[0].public_id]: 3, [other.variantId]: 1 });
  });

  test('adding a variant already in the cart adds to its line', async () => {
    const { variantId } = await sellableVariant(t.admin, { price: '2.50' });
    const account = await signUp(t);
    ok(await add(account.client, variantId, 2));
    const cart = ok(await add(account.client, variantId, 3));
    assert.equal(cart.items.length, 1);
    assert.equal(cart.items[0].quantity, 5);
    assert.equal(cart.items[0].line_total, '12.50');
    assert.equal(cart.item_count, 5);
    assert.deepEqual(await cartRows(account), { [variantId]: 5 });
  });

  test('with an Idempotency-Key an add is made once, however often and however concurrently it is sent', async () => {
    const { variantId } = await sellableVariant(t.admin, { price: '2.50' });
    const account = await signUp(t);
    const keyed = (key: string, quantity = 2) =>
      account.client.post(ITEMS, { variant_public_id: variantId, quantity }, { headers: { 'idempotency-key': key } });

    const first = await keyed('add-1');
    assert.equal(ok(first).items[0].quantity, 2);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await keyed('add-1');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(ok(again), ok(first), 'nothing changed in between: the same cart');
    assert.deepEqual(await cartRows(account), { [variantId]: 2 });

    // Ten at once with one key: one add; ten with keys of their own: ten.
    const racing = await Promise.all(Array.from({ length: 10 }, () => keyed('add-2', 1)));
    assert.ok(racing.every((r) => r.status === 200));
    assert.deepEqual(await cartRows(account), { [variantId]: 3 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => keyed(`add-3-${i}`, 1)));
    assert.deepEqual(await cartRows(account), { [variantId]: 13 });

    // The same key for another add is refused and adds nothing; without a key every add adds.
    // A replay answers with the cart as it is now, not as it was at the first add.
    const later = await keyed('add-1');
    assert.equal(later.headers.get('idempotent-replayed'), 'true');
    assert.equal(ok(later).items[0].quantity, 13);
    const stored = await t.db.selectFrom('idempotency_keys').select('response').where('key', '=', 'add-1').executeTakeFirstOrThrow();
    assert.equal(stored.response, null, 'the key keeps no copy of the cart');
    fails(await keyed('add-1', 5), 409, 'IDEMPOTENCY_KEY_REUSED');
    ok(await add(account.client, variantId, 1));
    ok(await add(account.client, variantId, 1));
    assert.deepEqual(await cartRows(account), { [variantId]: 15 });
  });

  test('a line may reach 999 but not go above it: 400 and the line is unchanged', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 2000 });
    const account = await signUp(t);
    ok(await add(account.client, variantId, 990));
    const refused = fails(await add(account.client, variantId, 10), 400, 'VALIDATION_ERROR');
    assert.equal(refused.details?.[0]?.field, 'quantity');
    assert.deepEqual(await cartRows(account), { [variantId]: 990 });
    assert.equal(ok(await add(account.client, variantId, 9)).items[0].quantity, 999);
    fails(await add(account.client, variantId, 1), 400, 'VALIDATION_ERROR');
    assert.deepEqual(await cartRows(account), { [variantId]: 999 });
  });

  test('quantity 0, 1000, a fraction, a string, missing, and unknown fields are 400; nothing is added', async () => {
    const { variantId } = await sellableVariant(t.admin);
    const account = await signUp(t);
    for (const quantity of [0, -1, 1000, 1.5, '2', null]) {
      fails(await add(account.client, variantId, quantity), 400, 'VALIDATION_ERROR');
    }
    fails(await account.client.post(ITEMS, { variant_public_id: variantId }), 400, 'VALIDATION_ERROR');
    fails(await account.client.post(ITEMS, { variant_public_id: variantId, quantity: 1, price: '0.01' }), 400, 'VALIDATION_ERROR');
    assert.deepEqual(await cartRows(account), {});
    ok(await add(account.client, variantId, 999));
  });

  test('unknown, malformed, inactive, deleted, DRAFT-product and ARCHIVED-product variants are 404', async () => {
    const inactive = await makeProduct(t.admin, { variants: [{ status: 'INACTIVE', stock: 5 }] });
    const deleted = await sellableVariant(t.admin);
    ok(await t.admin.delete(`${API}/admin/variants/${deleted.variantId}`), 204);
    const draft = await makeProduct(t.admin, { status: 'DRAFT', variants: [{ stock: 5 }] });
    const archived = await makeProduct(t.admin, { status: 'ARCHIVED', variants: [{ stock: 5 }] });
    const deletedProduct = await sellableVariant(t.admin);
    ok(await t.admin.delete(`${API}/admin/products/${deletedProduct.productId}`), 204);
    const account = await signUp(t);

    for (const variant of [
      unknownVariant(),
      'not-an-id',
      deleted.productId, // a product ID where a variant ID belongs
      inactive.variants[0].public_id,
      deleted.variantId,
      draft.variants[0].public_id,
      archived.variants[0].public_id,
      deletedProduct.variantId,
    ]) {
      fails(await add(account.client, variant, 1), 404, 'NOT_FOUND');
    }
    assert.deepEqual(await cartRows(account), {});
  });
});

describe('PATCH and DELETE /cart/items/{var}, DELETE /cart', () => {
  test('PATCH sets the quantity (not adds) and answers with the cart', async () => {
    const a = await sellableVariant(t.admin, { price: '3.33' });
    const b = await sellableVariant(t.admin, { price: '1.00' });
    const account = await signUp(t);
    ok(await add(account.client, a.variantId, 4));
    ok(await add(account.client, b.variantId, 1));
    const cart = ok(await account.client.patch(`${ITEMS}/${a.variantId}`, { quantity: 7 }));
    assert.deepEqual(
      cart.items.map((i: any) => [i.variant_public_id, i.quantity, i.line_total]),
      [
        [a.variantId, 7, '23.31'],
        [b.variantId, 1, '1.00'],
      ],
    );
    assert.equal(cart.subtotal, '24.31');
    assert.equal(cart.item_count, 8);
    assert.deepEqual(await cartRows(account), { [a.variantId]: 7, [b.variantId]: 1 });
  });

  test('PATCH with a bad quantity is 400, a variant not in the cart or a malformed ID is 404; the cart is unchanged', async () => {
    const inCart = await sellableVariant(t.admin);
    const notInCart = await sellableVariant(t.admin);
    const account = await signUp(t);
    ok(await add(account.client, inCart.variantId, 2));
    for (const quantity of [0, 1000, 2.5]) {
      fails(await account.client.patch(`${ITEMS}/${inCart.variantId}`, { quantity }), 400, 'VALIDATION_ERROR');
    }
    fails(await account.client.patch(`${ITEMS}/${inCart.variantId}`, { quantity: 3, extra: 1 }), 400, 'VALIDATION_ERROR');
    fails(await account.client.patch(`${ITEMS}/${notInCart.variantId}`, { quantity: 3 }), 404, 'NOT_FOUND');
    fails(await account.client.patch(`${ITEMS}/${unknownVariant()}`, { quantity: 3 }), 404, 'NOT_FOUND');
    fails(await account.client.patch(`${ITEMS}/garbage`, { quantity: 3 }), 404, 'NOT_FOUND');
    assert.deepEqual(await cartRows(account), { [inCart.variantId]: 2 });
  });

  test('DELETE removes one line; removing it again is 404; DELETE /cart empties it with 204', async () => {
    const a = await sellableVariant(t.admin, { price: '4.00' });
    const b = await sellableVariant(t.admin, { price: '6.00' });
    const account = await signUp(t);
    ok(await add(account.client, a.variantId, 1));
    ok(await add(account.client, b.variantId, 2));

    const cart = ok(await account.client.delete(`${ITEMS}/${a.variantId}`));
    assert.deepEqual(
      cart.items.map((i: any) => i.variant_public_id),
      [b.variantId],
    );
    assert.equal(cart.subtotal, '12.00');
    assert.deepEqual(await cartRows(account), { [b.variantId]: 2 });
    fails(await account.client.delete(`${ITEMS}/${a.variantId}`), 404, 'NOT_FOUND');
    fails(await account.client.delete(`${ITEMS}/nope`), 404, 'NOT_FOUND');

    const cleared = await account.client.delete(CART);
    assert.equal(cleared.status, 204);
    assert.equal(cleared.text, '');
    assert.deepEqual(await cartRows(account), {});
    assert.deepEqual(ok(await account.client.get(CART)), { items: [], subtotal: '0.00', currency: 'USD', item_count: 0 });
    assert.equal((await account.client.delete(CART)).status, 204);
  });

  test("one account cannot see or change another account's cart", async () => {
    const { variantId } = await sellableVariant(t.admin);
    const alice = await signUp(t);
    const bob = await signUp(t);
    ok(await add(alice.client, variantId, 3));

    assert.deepEqual(ok(await bob.client.get(CART)).items, []);
    fails(await bob.client.patch(`${ITEMS}/${variantId}`, { quantity: 9 }), 404, 'NOT_FOUND');
    fails(await bob.client.delete(`${ITEMS}/${variantId}`), 404, 'NOT_FOUND');
    assert.equal((await bob.client.delete(CART)).status, 204);
    ok(await add(bob.client, variantId, 1));

    assert.deepEqual(await cartRows(alice), { [variantId]: 3 });
    assert.deepEqual(await cartRows(bob), { [variantId]: 1 });
    assert.equal(ok(await alice.client.get(CART)).item_count, 3);
  });
});

describe('live prices and availability', () => {
  test('a price change shows in the cart at once', async () => {
    const { variantId } = await sellableVariant(t.admin, { price: '19.99' });
    const account = await signUp(t);
    ok(await add(account.client, variantId, 2));
    ok(await t.admin.patch(`${API}/admin/variants/${variantId}`, { price: '24.50' }));
    const cart = ok(await account.client.get(CART));
    assert.equal(cart.items[0].unit_price, '24.50');
    assert.equal(cart.items[0].line_total, '49.00');
    assert.equal(cart.subtotal, '49.00');
  });

  test('available is false when stock is short, and when the variant or its product is taken off sale', async () => {
    const { variantId, productId } = await sellableVariant(t.admin, { stock: 3 });
    const account = await signUp(t);
    const availability = async () => ok(await account.client.get(CART)).items[0].available;

    assert.equal(ok(await add(account.client, variantId, 4)).items[0].available, false);
    ok(await account.client.patch(`${ITEMS}/${variantId}`, { quantity: 3 }));
    assert.equal(await availability(), true);
    ok(await t.admin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: 1 }));
    assert.equal(await availability(), false, 'only 2 of 3 available after a manual hold');
    assert.equal(ok(await account.client.get(CART)).items[0].quantity_available, 2, 'a short line says how many there are');
    ok(await t.admin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: -1 }));
    assert.equal(await availability(), true);

    ok(await t.admin.patch(`${API}/admin/variants/${variantId}`, { status: 'INACTIVE' }));
    assert.equal(await availability(), false);
    assert.equal(ok(await account.client.get(CART)).items[0].quantity_available, null, 'off sale: no count');
    ok(await t.admin.patch(`${API}/admin/variants/${variantId}`, { status: 'ACTIVE' }));
    assert.equal(await availability(), true);
    ok(await t.admin.patch(`${API}/admin/products/${productId}`, { status: 'DRAFT' }));
    assert.equal(await availability(), false);
    ok(await t.admin.patch(`${API}/admin/products/${productId}`, { status: 'ACTIVE' }));
    assert.equal(await availability(), true);
    ok(await t.admin.delete(`${API}/admin/variants/${variantId}`), 204);
    const cart = ok(await account.client.get(CART));
    assert.equal(cart.items[0].available, false, 'a deleted variant stays visible in the cart, unavailable');
    assert.deepEqual(await cartRows(account), { [variantId]: 3 });
  });

  test('a variant with no inventory record can be added but is not available', async () => {
    const { variants } = await makeProduct(t.admin, { variants: [{ price: '7.00' }] });
    const account = await signUp(t);
    const cart = ok(await add(account.client, variants[0].public_id, 1));
    assert.equal(cart.items[0].available, false);
    assert.equal(cart.subtotal, '7.00');
  });
});
