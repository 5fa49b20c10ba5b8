import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ADDRESSES,
  addressRow,
  addressRows,
  assertDefaultInvariant,
  createAddress,
  customer,
  flagsOf,
  setCreatedAt,
  storedFlags,
} from './helpers/addresses.js';
import { useApp } from './helpers/use-app.js';

/** Default shipping and billing flags (contract section 4) as addresses are created and deleted. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

describe('default flags on create', () => {
  test('the first address holds both defaults even when the body says false', async () => {
    const { client, userId } = await customer(t);
    const first = await createAddress(client, { is_default_shipping: false, is_default_billing: false });
    assert.deepEqual(flagsOf(first), [true, true]);
    assert.deepEqual(await storedFlags(t, first.public_id), [true, true]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: first.public_id, billing: first.public_id, active: 1 });
  });

  test('a later address without flags holds none, and the first keeps both', async () => {
    const { client, userId } = await customer(t);
    const first = await createAddress(client);
    const second = await createAddress(client);
    const third = await createAddress(client, { is_default_shipping: false, is_default_billing: false });
    assert.deepEqual(flagsOf(second), [false, false]);
    assert.deepEqual(flagsOf(third), [false, false]);
    assert.deepEqual(await storedFlags(t, first.public_id), [true, true]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: first.public_id, billing: first.public_id, active: 3 });
  });

  test('creating with is_default_shipping true moves only the shipping flag to the new address', async () => {
    const { client, userId } = await customer(t);
    const first = await createAddress(client);
    const second = await createAddress(client, { is_default_shipping: true });
    assert.deepEqual(flagsOf(second), [true, false]);
    assert.deepEqual(await storedFlags(t, first.public_id), [false, true]);
    assert.deepEqual(await storedFlags(t, second.public_id), [true, false]);
    assert.deepEqual(flagsOf((await client.get(`${ADDRESSES}/${first.public_id}`)).body.data), [false, true]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: second.public_id, billing: first.public_id, active: 2 });

    // and again, from a holder that is not the first address
    const third = await createAddress(client, { is_default_shipping: true });
    assert.deepEqual(await storedFlags(t, second.public_id), [false, false]);
    assert.deepEqual(await storedFlags(t, third.public_id), [true, false]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: third.public_id, billing: first.public_id, active: 3 });
  });

  test('creating with is_default_billing true moves only the billing flag to the new address', async () => {
    const { client, userId } = await customer(t);
    const first = await createAddress(client);
    const second = await createAddress(client, { is_default_billing: true, is_default_shipping: false });
    assert.deepEqual(flagsOf(second), [false, true]);
    assert.deepEqual(await storedFlags(t, first.public_id), [true, false]);
    assert.deepEqual(flagsOf((await client.get(`${ADDRESSES}/${first.public_id}`)).body.data), [true, false]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: first.public_id, billing: second.public_id, active: 2 });
  });

  test('creating with both flags true takes both from their separate holders', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client, { is_default_billing: true });
    const c = await createAddress(client, { is_default_shipping: true, is_default_billing: true });
    assert.deepEqual(flagsOf(c), [true, true]);
    assert.deepEqual(await storedFlags(t, a.public_id), [false, false]);
    assert.deepEqual(await storedFlags(t, b.public_id), [false, false]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: c.public_id, billing: c.public_id, active: 3 });
  });

  test("one account's defaults never move another account's", async () => {
    const one = await customer(t);
    const two = await customer(t);
    const mine = await createAddress(one.client);
    const theirs = await createAddress(two.client);
    await createAddress(two.client, { is_default_shipping: true, is_default_billing: true });
    assert.deepEqual(await storedFlags(t, mine.public_id), [true, true]);
    assert.deepEqual(await storedFlags(t, theirs.public_id), [false, false]);
    await assertDefaultInvariant(t, one.userId);
    await assertDefaultInvariant(t, two.userId);
  });
});

describe('default flags on delete', () => {
  test('deleting the holder promotes the oldest remaining address (create three, delete the default)', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    const c = await createAddress(client, { is_default_shipping: true, is_default_billing: true });
    assert.equal((await client.delete(`${ADDRESSES}/${c.public_id}`)).status, 204);
    assert.deepEqual(await storedFlags(t, a.public_id), [true, true], 'the oldest, a, is promoted');
    assert.deepEqual(await storedFlags(t, b.public_id), [false, false]);
    assert.deepEqual(await storedFlags(t, c.public_id), [false, false], 'the deleted row keeps no flag');
    assert.deepEqual(flagsOf((await client.get(`${ADDRESSES}/${a.public_id}`)).body.data), [true, true]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: a.public_id, active: 2 });

    // now a, the oldest, is the holder: deleting it promotes b
    assert.equal((await client.delete(`${ADDRESSES}/${a.public_id}`)).status, 204);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: b.public_id, billing: b.public_id, active: 1 });
  });

  test('"oldest" is the earliest created_at, not insertion order', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    const c = await createAddress(client);
    const d = await createAddress(client, { is_default_shipping: true, is_default_billing: true });
    const aCreated = (await addressRow(t, a.public_id)).created_at;
    await setCreatedAt(t, { publicId: c.public_id }, new Date(aCreated.getTime() - 3_600_000)); // c is now the oldest
    assert.equal((await client.delete(`${ADDRESSES}/${d.public_id}`)).status, 204);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: c.public_id, billing: c.public_id, active: 3 });
    assert.deepEqual(await storedFlags(t, a.public_id), [false, false]);
    assert.deepEqual(await storedFlags(t, b.public_id), [false, false]);
  });

  test('equal created_at falls back to the public ID (contract section 4)', async () => {
    const { client, userId } = await customer(t);
    const holder = await createAddress(client);
    const tie = new Date('2020-01-01T00:00:00.000Z');
    // fixed IDs so the expected order does not depend on random ones: the second created sorts first
    const ids = ['adr_3333333333333333333333', 'adr_1111111111111111111111', 'adr_2222222222222222222222'];
    for (const id of ids) {
      const created = await createAddress(client);
      await setCreatedAt(t, { publicId: created.public_id }, tie);
      await t.db.updateTable('addresses').set({ public_id: id }).where('public_id', '=', created.public_id).execute();
    }
    assert.equal((await client.delete(`${ADDRESSES}/${holder.public_id}`)).status, 204);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: ids[1], billing: ids[1], active: 3 });
  });

  test('only the flags the deleted address held are promoted', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client); // will keep shipping
    const b = await createAddress(client);
    const c = await createAddress(client, { is_default_billing: true });
    assert.equal((await client.delete(`${ADDRESSES}/${c.public_id}`)).status, 204);
    // billing goes to the oldest (a), shipping never moved
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: a.public_id, active: 2 });
    assert.deepEqual(await storedFlags(t, b.public_id), [false, false]);

    const d = await createAddress(client, { is_default_shipping: true });
    assert.equal((await client.delete(`${ADDRESSES}/${d.public_id}`)).status, 204);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: a.public_id, active: 2 });

    // a holder of only shipping whose billing is elsewhere: shipping goes to the oldest, billing stays
    const e = await createAddress(client, { is_default_billing: true });
    const f = await createAddress(client, { is_default_shipping: true });
    await setCreatedAt(t, { publicId: b.public_id }, new Date('2000-01-01T00:00:00Z'));
    assert.equal((await client.delete(`${ADDRESSES}/${f.public_id}`)).status, 204);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: b.public_id, billing: e.public_id, active: 3 });
  });

  test('deleting an address that holds no default moves nothing', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    const before = await addressRows(t, userId);
    assert.equal((await client.delete(`${ADDRESSES}/${b.public_id}`)).status, 204);
    const after = await addressRows(t, userId);
    assert.deepEqual(
      after.find((r) => r.public_id === a.public_id),
      before.find((r) => r.public_id === a.public_id),
      'the holder is not touched',
    );
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: a.public_id, billing: a.public_id, active: 1 });
  });

  test('deleting the last address leaves no active address and no default; the next address is "first" again', async () => {
    const { client, userId } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    assert.equal((await client.delete(`${ADDRESSES}/${a.public_id}`)).status, 204);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: b.public_id, billing: b.public_id, active: 1 });
    assert.equal((await client.delete(`${ADDRESSES}/${b.public_id}`)).status, 204);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: null, billing: null, active: 0 });
    const rows = await addressRows(t, userId);
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => r.deleted_at !== null && !r.is_default_shipping && !r.is_default_billing));
    assert.equal((await client.get(ADDRESSES)).body.meta.total, 0);

    const fresh = await createAddress(client, { is_default_shipping: false });
    assert.deepEqual(flagsOf(fresh), [true, true]);
    assert.deepEqual(await assertDefaultInvariant(t, userId), { shipping: fresh.public_id, billing: fresh.public_id, active: 1 });
  });

  test('the invariant holds after every step of a longer sequence', async () => {
    const { client, userId } = await customer(t);
    const ids: string[] = [];
    const steps: (() => Promise<unknown>)[] = [
      async () => ids.push((await createAddress(client)).public_id),
      async () => ids.push((await createAddress(client, { is_default_billing: true })).public_id),
      async () => ids.push((await createAddress(client)).public_id),
      async () => client.patch(`${ADDRESSES}/${ids[2]}`, { is_default_shipping: true }),
      async () => client.delete(`${ADDRESSES}/${ids[1]}`),
      async () => ids.push((await createAddress(client, { is_default_shipping: true, is_default_billing: true })).public_id),
      async () => client.patch(`${ADDRESSES}/${ids[0]}`, { is_default_billing: true }),
      async () => client.delete(`${ADDRESSES}/${ids[3]}`),
      async () => client.delete(`${ADDRESSES}/${ids[0]}`),
      async () => client.delete(`${ADDRESSES}/${ids[2]}`),
      async () => ids.push((await createAddress(client)).public_id),
    ];
    // [shipping holder, billing holder, active count] after each step, as indexes into ids
    const expected: [number, number, number][] = [
      [0, 0, 1],
      [0, 1, 2],
      [0, 1, 3],
      [2, 1, 3],
      [2, 0, 2], // the oldest remaining (ids[0]) takes billing
      [3, 3, 3],
      [3, 0, 3],
      [0, 0, 2], // the oldest remaining (ids[0]) takes shipping
      [2, 2, 1],
      [-1, -1, 0],
      [4, 4, 1],
    ];
    for (const [index, step] of steps.entries()) {
      await step();
      const [shipping, billing, active] = expected[index]!;
      assert.deepEqual(
        await assertDefaultInvariant(t, userId),
        { shipping: ids[shipping] ?? null, billing: ids[billing] ?? null, active },
        `after step ${index + 1}`,
      );
    }
  });
});
