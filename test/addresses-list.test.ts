import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf } from './helpers/factories.js';
import { ADDRESSES, ADDRESS_FIELDS, addressRows, createAddress, customer, setCreatedAt, type AddressData } from './helpers/addresses.js';
import type { Client } from './helpers/client.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const meta = (page: number, limit: number, total: number, totalPages: number, hasNext: boolean, hasPrev: boolean) => ({
  page,
  limit,
  total,
  totalPages,
  hasNext,
  hasPrev,
});

/** A customer with n addresses created one after another; returned oldest first. */
async function bookOf(n: number) {
  const account = await customer(t);
  const addresses: AddressData[] = [];
  for (let i = 0; i < n; i++) addresses.push(await createAddress(account.client, { recipient_name: `Recipient ${i}` }));
  return { ...account, addresses };
}

const idsOf = (response: { body: any }) => (response.body.data as { public_id: string }[]).map((a) => a.public_id);

async function list(client: Client, query = '') {
  const response = await client.get(`${ADDRESSES}${query}`);
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.success, true);
  assert.deepEqual(Object.keys(response.body).sort(), ['data', 'meta', 'success']);
  return response;
}

describe('address list', () => {
  test('an empty book is 200 with no data, total 0 and totalPages 0', async () => {
    const { client } = await customer(t);
    const response = await list(client);
    assert.deepEqual(response.body, { success: true, data: [], meta: meta(1, 20, 0, 0, false, false) });
  });

  test('lists full Address records newest first with exact meta (defaults page 1, limit 20)', async () => {
    const { client, addresses } = await bookOf(5);
    const response = await list(client);
    assert.deepEqual(idsOf(response), addresses.map((a) => a.public_id).reverse());
    assert.deepEqual(response.body.meta, meta(1, 20, 5, 1, false, false));
    for (const item of response.body.data) assert.deepEqual(Object.keys(item).sort(), [...ADDRESS_FIELDS].sort());
    // each item is what GET returns for it
    const oldest = response.body.data[4];
    assert.deepEqual(oldest, (await client.get(`${ADDRESSES}/${oldest.public_id}`)).body.data);
    assert.equal(oldest.is_default_shipping, true);
  });

  test('newest first follows created_at, not insertion order', async () => {
    const { client, addresses, userId } = await bookOf(3);
    const [a, b, c] = addresses;
    // make a the newest and c the oldest
    await setCreatedAt(t, { publicId: a!.public_id }, new Date('2030-01-01T00:00:00Z'));
    await setCreatedAt(t, { publicId: c!.public_id }, new Date('2001-01-01T00:00:00Z'));
    assert.deepEqual(idsOf(await list(client)), [a!.public_id, b!.public_id, c!.public_id]);
    const rows = await addressRows(t, userId);
    assert.equal(rows.length, 3);
  });

  test('pages of limit 2 over 5 addresses: exact meta on each page, and past the end', async () => {
    const { client, addresses } = await bookOf(5);
    const newest = addresses.map((a) => a.public_id).reverse();
    const p1 = await list(client, '?limit=2');
    assert.deepEqual(idsOf(p1), newest.slice(0, 2));
    assert.deepEqual(p1.body.meta, meta(1, 2, 5, 3, true, false));
    const p2 = await list(client, '?page=2&limit=2');
    assert.deepEqual(idsOf(p2), newest.slice(2, 4));
    assert.deepEqual(p2.body.meta, meta(2, 2, 5, 3, true, true));
    const p3 = await list(client, '?limit=2&page=3');
    assert.deepEqual(idsOf(p3), newest.slice(4));
    assert.deepEqual(p3.body.meta, meta(3, 2, 5, 3, false, true));
    const p4 = await list(client, '?page=4&limit=2');
    assert.deepEqual(p4.body, { success: true, data: [], meta: meta(4, 2, 5, 3, false, true) });
    const far = await list(client, '?page=1000&limit=2');
    assert.deepEqual(far.body, { success: true, data: [], meta: meta(1000, 2, 5, 3, false, true) });
  });

  test('a page past the end of an empty book is 200 [] with accurate meta', async () => {
    const { client } = await customer(t);
    const response = await list(client, '?page=3&limit=10');
    assert.deepEqual(response.body, { success: true, data: [], meta: meta(3, 10, 0, 0, false, true) });
  });

  test('limit 1 and limit 100 are accepted', async () => {
    const { client, addresses } = await bookOf(3);
    const one = await list(client, '?limit=1');
    assert.deepEqual(idsOf(one), [addresses[2]!.public_id]);
    assert.deepEqual(one.body.meta, meta(1, 1, 3, 3, true, false));
    const middle = await list(client, '?limit=1&page=2');
    assert.deepEqual(idsOf(middle), [addresses[1]!.public_id]);
    assert.deepEqual(middle.body.meta, meta(2, 1, 3, 3, true, true));
    const hundred = await list(client, '?limit=100');
    assert.equal(hundred.body.data.length, 3);
    assert.deepEqual(hundred.body.meta, meta(1, 100, 3, 1, false, false));
  });

  test('limit 100 returns 100 of 101 and a second page of 1', async () => {
    const { client, userId } = await customer(t);
    await createAddress(client);
    // bulk rows straight in the database; the list reads whatever is there
    const template = (await addressRows(t, userId))[0]!;
    const base = Date.parse('2024-01-01T00:00:00Z');
    await t.db
      .insertInto('addresses')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          public_id: `adr_bulk${String(i).padStart(16, '0')}`,
          user_id: userId,
          recipient_name: `Bulk ${i}`,
          phone_number: template.phone_number,
          country: template.country,
          state: template.state,
          city: template.city,
          address_1: template.address_1,
          created_at: new Date(base + i * 1000),
          updated_at: new Date(base + i * 1000),
        })),
      )
      .execute();
    const first = await list(client, '?limit=100');
    assert.equal(first.body.data.length, 100);
    assert.deepEqual(first.body.meta, meta(1, 100, 101, 2, true, false));
    assert.equal(first.body.data[0].public_id, template.public_id, 'the address created now is the newest');
    const second = await list(client, '?limit=100&page=2');
    assert.deepEqual(idsOf(second), ['adr_bulk0000000000000000'], 'the oldest bulk row is last');
    assert.deepEqual(second.body.meta, meta(2, 100, 101, 2, false, true));
    const defaultLimit = await list(client);
    assert.equal(defaultLimit.body.data.length, 20);
    assert.deepEqual(defaultLimit.body.meta, meta(1, 20, 101, 6, true, false));
  });

  for (const [query, field] of [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=1&limit=101', 'limit'],
  ] as const) {
    test(`?${query} is 400 VALIDATION_ERROR naming ${field}`, async () => {
      const { client } = await bookOf(1);
      const response = await client.get(`${ADDRESSES}?${query}`);
      assert.equal(response.status, 400, response.text);
      const error = errorOf(response);
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.ok(
        error.details?.some((d) => d.field === field),
        JSON.stringify(error.details),
      );
    });
  }

  test('a page number too large for the database is 400, and the largest accepted page is an empty 200', async () => {
    const { client } = await bookOf(1);
    const tooLarge = await client.get(`${ADDRESSES}?page=100000000000000000000`);
    assert.equal(tooLarge.status, 400, tooLarge.text);
    assert.equal(errorOf(tooLarge).code, 'VALIDATION_ERROR');
    const largest = await client.get(`${ADDRESSES}?page=${Number.MAX_SAFE_INTEGER}&limit=100`);
    assert.equal(largest.status, 200, largest.text);
    assert.deepEqual(largest.body.data, []);
    assert.equal(largest.body.meta.total, 1);
  });

  test('walking every page with limit 2 over 5 addresses never repeats or skips a row, even with equal created_at', async () => {
    const { client, addresses, userId } = await bookOf(5);
    const expected = addresses.map((a) => a.public_id).reverse();
    const walk = async () => {
      const seen: string[] = [];
      for (let page = 1; ; page++) {
        const response = await list(client, `?limit=2&page=${page}`);
        seen.push(...idsOf(response));
        if (!response.body.meta.hasNext) {
          assert.equal(page, response.body.meta.totalPages);
          break;
        }
        assert.ok(page < 10, 'the walk ends');
      }
      return seen;
    };
    assert.deepEqual(await walk(), expected);

    // all five at the same instant: order falls back to the public ID, still stable
    await setCreatedAt(t, { userId }, new Date('2022-02-02T00:00:00Z'));
    const tied = await walk();
    assert.equal(tied.length, 5);
    assert.equal(new Set(tied).size, 5, 'no row repeats');
    assert.deepEqual([...tied].sort(), [...expected].sort(), 'no row is skipped');
    assert.deepEqual(await walk(), tied, 'the order is stable');
    assert.deepEqual(tied, [...tied].sort().reverse(), 'ties are broken by public ID');
  });

  test('deleted addresses and other accounts are not listed or counted', async () => {
    const { client, addresses } = await bookOf(4);
    const stranger = await bookOf(3);
    assert.equal((await client.delete(`${ADDRESSES}/${addresses[1]!.public_id}`)).status, 204);
    const response = await list(client, '?limit=2');
    assert.deepEqual(response.body.meta, meta(1, 2, 3, 2, true, false));
    const all = [...idsOf(response), ...idsOf(await list(client, '?limit=2&page=2'))];
    assert.deepEqual(all, [addresses[3]!.public_id, addresses[2]!.public_id, addresses[0]!.public_id]);
    const theirs = await list(stranger.client);
    assert.deepEqual(theirs.body.meta, meta(1, 20, 3, 1, false, false));
    assert.ok(!idsOf(theirs).some((id) => addresses.some((a) => a.public_id === id)));
  });

  test('a deleted-only book lists empty, including past the end', async () => {
    const { client, addresses } = await bookOf(2);
    for (const a of addresses) assert.equal((await client.delete(`${ADDRESSES}/${a.public_id}`)).status, 204);
    assert.deepEqual((await list(client)).body.meta, meta(1, 20, 0, 0, false, false));
    assert.deepEqual((await list(client, '?page=2')).body, { success: true, data: [], meta: meta(2, 20, 0, 0, false, true) });
  });

  test('list reflects updates and moved defaults', async () => {
    const { client, addresses } = await bookOf(2);
    await client.patch(`${ADDRESSES}/${addresses[1]!.public_id}`, { is_default_shipping: true, city: 'Bath' });
    const [newest, oldest] = (await list(client)).body.data;
    assert.equal(newest.public_id, addresses[1]!.public_id, 'an update does not reorder');
    assert.equal(newest.city, 'Bath');
    assert.deepEqual([newest.is_default_shipping, newest.is_default_billing], [true, false]);
    assert.deepEqual([oldest.is_default_shipping, oldest.is_default_billing], [false, true]);
  });
});
