import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  ADDRESSES,
  addressRows,
  assertDefaultInvariant,
  createAddress,
  customer,
  storedFlags,
  type AddressData,
} from '../helpers/addresses.js';
import { useApp } from '../helpers/use-app.js';

/**
 * Real races: many requests from one account in flight at once (Promise.all
 * over fetch). Contract section 4: the default-flag
 * invariant holds under concurrent requests.
 */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

describe('default flags under concurrency', () => {
  const N = 20;

  test(`${N} concurrent creates all asking for both defaults: all 201, exactly one holder of each`, async () => {
    const { client, userId } = await customer(t);
    const existing = await createAddress(client);
    await client.csrf();
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) => client.post(ADDRESSES, { ...baseInput(i), is_default_shipping: true, is_default_billing: true })),
    );
    for (const response of responses) assert.equal(response.status, 201, response.text);
    const holders = await assertDefaultInvariant(t, userId);
    assert.equal(holders.active, N + 1);
    const created = new Set(responses.map((r) => r.body.data.public_id));
    assert.ok(created.has(holders.shipping!) && created.has(holders.billing!), 'a new address holds them');
    assert.deepEqual(await storedFlags(t, existing.public_id), [false, false]);
  });

  test(`${N} concurrent first creates on an empty book: exactly one gets both defaults`, async () => {
    const { client, userId } = await customer(t);
    await client.csrf();
    const responses = await Promise.all(Array.from({ length: N }, (_, i) => client.post(ADDRESSES, baseInput(i))));
    for (const response of responses) assert.equal(response.status, 201, response.text);
    const holders = await assertDefaultInvariant(t, userId);
    assert.equal(holders.active, N);
    assert.equal(holders.shipping, holders.billing, 'the first address holds both');
    const claimed = responses.filter((r) => r.body.data.is_default_shipping || r.body.data.is_default_billing);
    assert.equal(claimed.length, 1, 'exactly one response reported the defaults');
    assert.equal(claimed[0]!.body.data.public_id, holders.shipping);
  });

  test(`${N} concurrent PATCHes setting is_default_shipping on different addresses: exactly one holder`, async () => {
    const { client, userId } = await customer(t);
    const addresses: AddressData[] = [];
    for (let i = 0; i < N; i++) addresses.push(await createAddress(client, baseInput(i)));
    const responses = await Promise.all(addresses.map((a) => client.patch(`${ADDRESSES}/${a.public_id}`, { is_default_shipping: true })));
    for (const response of responses) {
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.data.is_default_shipping, true);
    }
    const holders = await assertDefaultInvariant(t, userId);
    assert.equal(holders.billing, addresses[0]!.public_id, 'billing never moved');
    assert.ok(addresses.some((a) => a.public_id === holders.shipping));
  });

  test('concurrent PATCHes moving both flags in different combinations keep the invariant', async () => {
    const { client, userId } = await customer(t);
    const addresses: AddressData[] = [];
    for (let i = 0; i < 10; i++) addresses.push(await createAddress(client, baseInput(i)));
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        client.patch(
          `${ADDRESSES}/${addresses[i % 10]!.public_id}`,
          i % 2 ? { is_default_billing: true } : { is_default_shipping: true, is_default_billing: true },
        ),
      ),
    );
    for (const response of responses) assert.equal(response.status, 200, response.text);
    await assertDefaultInvariant(t, userId);
  });

  test('concurrent deletes of the default holder and creates keep the invariant', async () => {
    const { client, userId } = await customer(t);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) await createAddress(client, baseInput(i));
      const { shipping } = await assertDefaultInvariant(t, userId);
      const others = (await addressRows(t, userId)).filter((r) => r.deleted_at === null && r.public_id !== shipping);
      await client.csrf();
      const responses = await Promise.all([
        ...Array.from({ length: 5 }, () => client.delete(`${ADDRESSES}/${shipping}`)),
        ...others.slice(0, 3).map((r) => client.delete(`${ADDRESSES}/${r.public_id}`)),
        ...Array.from({ length: 12 }, (_, i) =>
          client.post(ADDRESSES, { ...baseInput(i), is_default_shipping: i % 3 === 0, is_default_billing: i % 4 === 0 }),
        ),
      ]);
      const deletes = responses
        .slice(0, 5)
        .map((r) => r.status)
        .sort();
      assert.deepEqual(deletes, [204, 404, 404, 404, 404], 'the holder is deleted exactly once');
      for (const response of responses.slice(5, 8)) assert.equal(response.status, 204, response.text);
      for (const response of responses.slice(8)) assert.equal(response.status, 201, response.text);
      const holders = await assertDefaultInvariant(t, userId);
      assert.notEqual(holders.shipping, shipping);
    }
  });

  test('concurrent deletes of every address, with creates, keep the invariant', async () => {
    const { client, userId } = await customer(t);
    const addresses: AddressData[] = [];
    for (let i = 0; i < 10; i++) addresses.push(await createAddress(client, baseInput(i)));
    await client.csrf();
    const responses = await Promise.all([
      ...addresses.map((a) => client.delete(`${ADDRESSES}/${a.public_id}`)),
      ...Array.from({ length: 10 }, (_, i) => client.post(ADDRESSES, baseInput(i))),
    ]);
    for (const response of responses.slice(0, 10)) assert.equal(response.status, 204, response.text);
    for (const response of responses.slice(10)) assert.equal(response.status, 201, response.text);
    const holders = await assertDefaultInvariant(t, userId);
    assert.equal(holders.active, 10);

    // and everything deleted at once leaves an empty book with no flags
    const rest = (await addressRows(t, userId)).filter((r) => r.deleted_at === null);
    const deletes = await Promise.all(rest.map((r) => client.delete(`${ADDRESSES}/${r.public_id}`)));
    for (const response of deletes) assert.equal(response.status, 204, response.text);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: null, billing: null, active: 0 });
  });

  test('the database itself refuses a second default of either kind', async () => {
    const { client, userId } = await customer(t);
    await createAddress(client);
    const second = await createAddress(client);
    for (const flag of ['is_default_shipping', 'is_default_billing'] as const) {
      await assert.rejects(
        t.db
          .updateTable('addresses')
          .set({ [flag]: true })
          .where('public_id', '=', second.public_id)
          .execute(),
        /unique|duplicate/i,
      );
    }
    await assert.rejects(
      sql`UPDATE addresses SET deleted_at = now() WHERE user_id = ${userId} AND is_default_shipping`.execute(t.db),
      /check|deleted_address_holds_no_default/i,
    );
    await assertDefaultInvariant(t, userId);
  });
});

function baseInput(i: number) {
  return {
    recipient_name: `Recipient ${i}`,
    phone_number: `+1 555 01${String(i).padStart(2, '0')}`,
    country: 'US',
    state: 'NY',
    city: 'New York',
    address_1: `${i} Broadway`,
  };
}
