import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf } from './helpers/factories.js';
import { ADDRESSES, addressRows, assertDefaultInvariant, createAddress, customer, flagsOf, storedFlags } from './helpers/addresses.js';
import { useApp } from './helpers/use-app.js';

/** Default shipping and billing flags (contract section 4) as addresses are updated. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

describe('default flags on update', () => {
  test('setting is_default_shipping true moves it here; billing stays', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    const response = await client.patch(`${ADDRESSES}/${b.public_id}`, { is_default_shipping: true });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(flagsOf(response.body.data), [true, false]);
    assert.deepEqual(await storedFlags(t, a.public_id), [false, true]);
    assert.deepEqual(await storedFlags(t, b.public_id), [true, false]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: b.public_id, billing: a.public_id, active: 2 });
  });

  test('setting is_default_billing true moves it here; shipping stays', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    const c = await createAddress(client);
    const response = await client.patch(`${ADDRESSES}/${c.public_id}`, { is_default_billing: true, label: 'Billing' });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(flagsOf(response.body.data), [false, true]);
    assert.equal(response.body.data.label, 'Billing');
    assert.deepEqual(await storedFlags(t, a.public_id), [true, false]);
    assert.deepEqual(await storedFlags(t, b.public_id), [false, false]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: c.public_id, active: 3 });
  });

  test('setting both true on one address moves both', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    const response = await client.patch(`${ADDRESSES}/${b.public_id}`, { is_default_shipping: true, is_default_billing: true });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(flagsOf(response.body.data), [true, true]);
    assert.deepEqual(await storedFlags(t, a.public_id), [false, false]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: b.public_id, billing: b.public_id, active: 2 });
  });

  test('setting a flag true on its holder is a 200 no-op for the flags', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    await createAddress(client);
    const response = await client.patch(`${ADDRESSES}/${a.public_id}`, { is_default_shipping: true, is_default_billing: true });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(flagsOf(response.body.data), [true, true]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: a.public_id, active: 2 });
  });

  for (const flag of ['is_default_shipping', 'is_default_billing'] as const) {
    test(`setting ${flag} false on its holder is 409 DEFAULT_ADDRESS_REQUIRED and nothing changes`, async () => {
      const { client, userId } = await customer(t);
      const a = await createAddress(client);
      await createAddress(client);
      const before = await addressRows(t, userId);
      // the other changes in the same request are not applied either
      const response = await client.patch(`${ADDRESSES}/${a.public_id}`, { [flag]: false, city: 'Elsewhere' });
      assert.equal(response.status, 409, response.text);
      assert.equal(errorOf(response).code, 'DEFAULT_ADDRESS_REQUIRED');
      assert.deepEqual(await addressRows(t, userId), before);
      assert.deepEqual(flagsOf((await client.get(`${ADDRESSES}/${a.public_id}`)).body.data), [true, true]);
    });
  }

  test('409 on the only address too: its defaults cannot be unset', async () => {
    const { client, userId } = await customer(t);
    const only = await createAddress(client);
    const before = await addressRows(t, userId);
    const response = await client.patch(`${ADDRESSES}/${only.public_id}`, { is_default_shipping: false, is_default_billing: false });
    assert.equal(response.status, 409);
    assert.equal(errorOf(response).code, 'DEFAULT_ADDRESS_REQUIRED');
    assert.deepEqual(await addressRows(t, userId), before);
  });

  test('a 409 in the same request as a flag move rolls the move back', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client); // holds both
    const b = await createAddress(client, { is_default_billing: true }); // a: shipping, b: billing
    const before = await addressRows(t, userId);
    // shipping true would move shipping from a to b, but b holds billing and may not drop it
    const response = await client.patch(`${ADDRESSES}/${b.public_id}`, { is_default_shipping: true, is_default_billing: false });
    assert.equal(response.status, 409, response.text);
    assert.equal(errorOf(response).code, 'DEFAULT_ADDRESS_REQUIRED');
    assert.deepEqual(await addressRows(t, userId), before);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: b.public_id, active: 2 });
  });

  test('setting a flag false on an address that does not hold it is fine and moves nothing', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    const response = await client.patch(`${ADDRESSES}/${b.public_id}`, {
      is_default_shipping: false,
      is_default_billing: false,
      city: 'Leeds',
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(flagsOf(response.body.data), [false, false]);
    assert.equal(response.body.data.city, 'Leeds');
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: a.public_id, active: 2 });
  });

  test('a patch without flags leaves them where they are', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client, { is_default_billing: true });
    for (const [address, flags] of [
      [a, [true, false]],
      [b, [false, true]],
    ] as const) {
      const response = await client.patch(`${ADDRESSES}/${address.public_id}`, { address_2: 'Side door' });
      assert.equal(response.status, 200);
      assert.deepEqual(flagsOf(response.body.data), flags);
    }
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: b.public_id, active: 2 });
  });
});
