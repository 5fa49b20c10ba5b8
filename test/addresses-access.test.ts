import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type TestApp } from './helpers/app.js';
import { addressInput, errorOf } from './helpers/factories.js';
import { ADDRESSES, addressRows, assertDefaultInvariant, createAddress, customer } from './helpers/addresses.js';
import { useApp } from './helpers/use-app.js';

/** Who may reach an address: another account never (404, nothing changed), nor an unknown or misshapen ID (404); no session is 401, a write without its CSRF token 403. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const SESSION_COOKIE = 'session';

describe('address ownership', () => {
  test("another account's address is 404 on get, patch and delete, and is not modified", async () => {
    const owner = await customer(t);
    const other = await customer(t);
    const theirs = await createAddress(owner.client);
    await createAddress(other.client); // the intruder has a book of their own
    const ownerBefore = await addressRows(t, owner.userId);
    const otherBefore = await addressRows(t, other.userId);
    const path = `${ADDRESSES}/${theirs.public_id}`;

    const responses = [
      await other.client.get(path),
      await other.client.patch(path, { city: 'Hijacked' }),
      await other.client.patch(path, { is_default_shipping: false }),
      await other.client.delete(path),
    ];
    for (const response of responses) {
      assert.equal(response.status, 404, response.text);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
      assert.doesNotMatch(response.text, /Ada|London|Hijacked/);
    }
    assert.deepEqual(await addressRows(t, owner.userId), ownerBefore);
    assert.deepEqual(await addressRows(t, other.userId), otherBefore);

    const ownList = await other.client.get(ADDRESSES);
    assert.equal(ownList.body.meta.total, 1);
    assert.ok(!ownList.body.data.some((a: any) => a.public_id === theirs.public_id));
    assert.equal((await owner.client.get(path)).status, 200, 'the owner still sees it');
  });

  test('a missing, misshapen or wrong-prefix id is 404 NOT_FOUND on get, patch and delete', async () => {
    const { client, userId, user } = await customer(t);
    const mine = await createAddress(client);
    const before = await addressRows(t, userId);
    const body = mine.public_id.slice(4);
    const ids = [
      'adr_x',
      'adr_',
      `usr_${body}`, // right body, wrong prefix
      `ADR_${body}`,
      String(user.public_id),
      body,
      `adr_${'A'.repeat(20)}`, // well-formed, unknown
      `${mine.public_id}x`,
      '1',
      encodeURIComponent("adr_' OR '1'='1"),
      'adr_' + 'a'.repeat(90), // too long for the ID shape
    ];
    for (const id of ids) {
      for (const response of [
        await client.get(`${ADDRESSES}/${id}`),
        await client.patch(`${ADDRESSES}/${id}`, { city: 'Nowhere' }),
        await client.delete(`${ADDRESSES}/${id}`),
      ]) {
        assert.equal(response.status, 404, `${id}: ${response.text}`);
        assert.equal(errorOf(response).code, 'NOT_FOUND');
      }
    }
    assert.deepEqual(await addressRows(t, userId), before);
  });
});

test('an id longer than 100 characters is 404 in the error envelope', async () => {
  const { client } = await customer(t);
  const response = await client.get(`${ADDRESSES}/adr_${'a'.repeat(200)}`);
  assert.equal(response.status, 404, response.text);
  assert.equal(errorOf(response).code, 'NOT_FOUND');
});

describe('address authentication', () => {
  async function everyOperation(client: ReturnType<TestApp['client']>, id: string, csrf?: false) {
    const options = csrf === false ? { csrf: false as const } : {};
    return [
      await client.get(ADDRESSES),
      await client.post(ADDRESSES, addressInput(), options),
      await client.get(`${ADDRESSES}/${id}`),
      await client.patch(`${ADDRESSES}/${id}`, { city: 'Anon' }, options),
      await client.delete(`${ADDRESSES}/${id}`, options),
    ];
  }

  test('all five operations are 401 UNAUTHENTICATED without a session (with or without a CSRF token)', async () => {
    const { client: owner, userId } = await customer(t);
    const existing = await createAddress(owner);
    const before = await addressRows(t, userId);
    const anonymous = t.client();
    for (const csrf of [undefined, false] as const) {
      for (const response of await everyOperation(anonymous, existing.public_id, csrf)) {
        assert.equal(response.status, 401, response.text);
        assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
      }
    }
    assert.deepEqual(await addressRows(t, userId), before);
  });

  test('a signed-out (revoked) session is 401 on all five operations', async () => {
    const { client, userId } = await customer(t);
    const existing = await createAddress(client);
    const token = client.cookies.get(SESSION_COOKIE);
    assert.ok(token, 'the sign-up set a session cookie');
    assert.equal((await client.delete('/api/v1/auth/session')).status, 204);
    const before = await addressRows(t, userId);

    const stale = t.client();
    stale.cookies.set(SESSION_COOKIE, token);
    for (const response of await everyOperation(stale, existing.public_id)) {
      assert.equal(response.status, 401, response.text);
      assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
    }
    assert.deepEqual(await addressRows(t, userId), before);
  });

  test('writes without the CSRF header are 403 CSRF_TOKEN_INVALID and change nothing', async () => {
    const { client, userId } = await customer(t);
    const existing = await createAddress(client);
    const before = await addressRows(t, userId);
    for (const response of [
      await client.post(ADDRESSES, addressInput(), { csrf: false }),
      await client.patch(`${ADDRESSES}/${existing.public_id}`, { city: 'Forged' }, { csrf: false }),
      await client.delete(`${ADDRESSES}/${existing.public_id}`, { csrf: false }),
      await client.post(ADDRESSES, addressInput(), { csrf: 'not-the-token' }),
    ]) {
      assert.equal(response.status, 403, response.text);
      assert.equal(errorOf(response).code, 'CSRF_TOKEN_INVALID');
    }
    assert.deepEqual(await addressRows(t, userId), before);
    await assertDefaultInvariant(t, userId);
  });
});
