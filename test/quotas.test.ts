import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addToLine } from '../src/cart/repository.js';
import { inBatches, sellableVariant } from './helpers/commerce.js';
import { addressInput, errorOf, signUp } from './helpers/factories.js';
import { credentials, local, tinyPng, upload, uploadedReviewImage } from './helpers/media.js';
import { STAFF_SESSIONS_OUTLAST_THE_CLOCK } from './helpers/sessions.js';
import { useApp } from './helpers/use-app.js';

/** Issue 12, part 3: what a free account can make the server store is bounded, and what nothing needs is pruned. */
const t = useApp({
  env: {
    RATE_LIMIT_UPLOAD: '3/5m',
    RATE_LIMIT_REGISTER: '0',
    MAX_ADDRESSES_PER_ACCOUNT: '5',
    MAX_CART_LINES: '5',
    EMAIL_POLL_INTERVAL_MS: '600000',
    ...STAFF_SESSIONS_OUTLAST_THE_CLOCK,
  },
  as: ['ADMIN'],
});

const API = '/api/v1';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const review = (productId: string, images: { image_url: string }[]) => ({
  product_public_id: productId,
  rating: 5,
  title: 'Nice',
  comment: 'Good.',
  images,
});
const status = async (url: string) => (await fetch(local(t, url))).status;

// First: the tests after this move the clock by days, past the admin's session.
describe('cart line cap', () => {
  const cartOf = async (client: Awaited<ReturnType<typeof signUp>>['client']) => (await client.get(`${API}/cart`)).body.data;

  test('racing adds of new products stop at the cap with 409 CART_FULL; a line in the cart still grows; removing one makes room', async () => {
    const variants = await inBatches(12, 4, async () => (await sellableVariant(t.admin)).variantId);
    const { client } = await signUp(t);
    await client.csrf();
    const responses = await Promise.all(variants.map((id) => client.post(`${API}/cart/items`, { variant_public_id: id, quantity: 1 })));
    const added = variants.filter((_, i) => responses[i]!.status === 200);
    assert.equal(added.length, 5);
    for (const response of responses.filter((r) => r.status !== 200)) {
      assert.equal(response.status, 409, response.text);
      assert.equal(errorOf(response).code, 'CART_FULL');
      assert.equal(response.body.error.details[0].limit, 5);
    }
    const full = await cartOf(client);
    assert.deepEqual(full.items.map((line: { variant_public_id: string }) => line.variant_public_id).sort(), [...added].sort());

    // A full cart still takes more of what it holds, and a keyed add of something new is refused alike.
    const more = await client.post(`${API}/cart/items`, { variant_public_id: added[0], quantity: 2 });
    assert.equal(more.status, 200, more.text);
    assert.equal(more.body.data.items.length, 5);
    const outside = variants.find((id) => !added.includes(id))!;
    const keyed = await client.post(
      `${API}/cart/items`,
      { variant_public_id: outside, quantity: 1 },
      { headers: { 'idempotency-key': `cap-${outside}` } },
    );
    assert.equal(keyed.status, 409, keyed.text);
    assert.equal(errorOf(keyed).code, 'CART_FULL');
    // An unknown variant is still 404, full cart or not.
    assert.equal((await client.post(`${API}/cart/items`, { variant_public_id: 'var_0000000000000000000000', quantity: 1 })).status, 404);
    assert.equal((await cartOf(client)).item_count, 7, 'nothing refused was added');

    assert.equal((await client.delete(`${API}/cart/items/${added[1]}`)).status, 200);
    const retried = await client.post(
      `${API}/cart/items`,
      { variant_public_id: outside, quantity: 1 },
      { headers: { 'idempotency-key': `cap-${outside}` } },
    );
    assert.equal(retried.status, 200, 'a refused key was not kept: sent again once there is room, the add is made');
    assert.equal(retried.body.data.items.length, 5);
  });

  test('an add waits for another add of the same cart still in its transaction, then counts that line', async () => {
    const variants = await inBatches(6, 3, async () => (await sellableVariant(t.admin)).variantId);
    const { client, email } = await signUp(t);
    for (const id of variants.slice(0, 4))
      assert.equal((await client.post(`${API}/cart/items`, { variant_public_id: id, quantity: 1 })).status, 200);
    const { id: userId } = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await client.csrf();
    let racing: Promise<{ status: number }> | undefined;
    await t.db.transaction().execute(async (trx) => {
      // The fifth line, written and not yet committed: the lock it took is held until the commit.
      assert.ok(await addToLine(trx, Number(userId), variants[4]!, 1, 5, new Date()));
      racing = client.post(`${API}/cart/items`, { variant_public_id: variants[5], quantity: 1 });
      const early = await Promise.race([racing.then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 400, 'waiting'))]);
      assert.equal(early, 'waiting', 'the racing add waits for the open one');
    });
    const refused = await racing!;
    assert.equal(refused.status, 409, 'counted after the commit: the cart was full');
    assert.equal((await cartOf(client)).items.length, 5);
  });

  test('the cap is per cart: another account adds while this one is full', async () => {
    const variants = await inBatches(6, 3, async () => (await sellableVariant(t.admin)).variantId);
    const first = await signUp(t);
    for (const id of variants.slice(0, 5))
      assert.equal((await first.client.post(`${API}/cart/items`, { variant_public_id: id, quantity: 1 })).status, 200);
    const second = await signUp(t);
    assert.equal((await second.client.post(`${API}/cart/items`, { variant_public_id: variants[5], quantity: 1 })).status, 200);
    assert.equal((await first.client.post(`${API}/cart/items`, { variant_public_id: variants[5], quantity: 1 })).status, 409);
  });
});

describe('upload quotas', () => {
  test('upload credentials are limited per account (RATE_LIMIT_UPLOAD)', async () => {
    const { client } = await signUp(t);
    for (let i = 0; i < 3; i++) assert.equal((await client.get(`${API}/uploads/media-auth`)).status, 200);
    const refused = await client.get(`${API}/uploads/media-auth`);
    assert.equal(refused.status, 429);
    assert.equal(errorOf(refused).code, 'RATE_LIMITED');
    // Another account has its own allowance.
    assert.equal((await (await signUp(t)).client.get(`${API}/uploads/media-auth`)).status, 200);
    t.clock.advance(5 * 60_000 + 1000);
  });

  test('stored files are limited per account too: tokens from two windows cannot double the allowance', async () => {
    const { client } = await signUp(t);
    const early = [await credentials(client), await credentials(client), await credentials(client)];
    t.clock.advance(5 * 60_000 + 1000); // a new window for credentials; the early tokens are still valid
    const late = [await credentials(client), await credentials(client), await credentials(client)];
    const statuses: number[] = [];
    for (const creds of [...early, ...late]) statuses.push((await upload(t, creds, tinyPng())).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
    // A refused upload changed nothing: its token is still unused, and no file was stored for it.
    const tokens = await t.db
      .selectFrom('upload_tokens')
      .select(['token', 'used_at'])
      .where(
        'token',
        'in',
        late.map((c) => c.token),
      )
      .execute();
    assert.deepEqual(
      tokens.map((row) => row.used_at),
      [null, null, null],
    );
    const stored = await t.db
      .selectFrom('media_files')
      .innerJoin('upload_tokens', 'upload_tokens.user_id', 'media_files.user_id')
      .select((eb) => eb.fn.count<string>('media_files.path').distinct().as('n'))
      .where('upload_tokens.token', '=', late[0]!.token)
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), 3, 'the three accepted files only');
    t.clock.advance(5 * 60_000 + 1000);
  });
});

describe("review images are the author's own uploads", () => {
  test("another account's upload, or a file that does not exist, is 400 INVALID_IMAGE_URL", async () => {
    const { productId } = await sellableVariant(t.admin);
    const owner = await signUp(t);
    const url = await uploadedReviewImage(t, owner.client);
    const other = await signUp(t);
    const stolen = await other.client.post(`${API}/reviews`, review(productId, [{ image_url: url }]));
    assert.equal(stolen.status, 400);
    assert.equal(errorOf(stolen).code, 'INVALID_IMAGE_URL');
    assert.equal(errorOf(stolen).details?.[0]?.field, 'images.0.image_url');
    const missing = url.replace(/[0-9a-f]{32}/, '0'.repeat(32));
    assert.equal(errorOf(await owner.client.post(`${API}/reviews`, review(productId, [{ image_url: missing }]))).code, 'INVALID_IMAGE_URL');
    t.clock.advance(5 * 60_000 + 1000);
  });

  test('the stored URL is the one the upload returned, not the raw input', async () => {
    const { productId } = await sellableVariant(t.admin);
    const { client } = await signUp(t);
    const url = await uploadedReviewImage(t, client);
    const dressed = url.replace('http://localhost', 'HTTP://LOCALHOST') + '?utm=1#top';
    const created = await client.post(`${API}/reviews`, review(productId, [{ image_url: dressed }]));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.data.images[0].image_url, url);
    t.clock.advance(5 * 60_000 + 1000);
  });
});

describe('pruning', () => {
  test('Idempotency-Keys past their 24 hours are deleted with the responses they kept; a newer one still replays', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 10 });
    const offset = t.clock.offsetMs;
    const keys = async () =>
      (await t.db.selectFrom('idempotency_keys').select('key').where('key', 'in', ['old-key', 'new-key']).orderBy('key').execute()).map(
        (row) => row.key,
      );
    const reserve = (key: string) =>
      t.admin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: 1 }, { headers: { 'idempotency-key': key } });
    assert.equal((await reserve('old-key')).status, 200);
    t.clock.advance(DAY + 60_000);
    assert.equal((await reserve('new-key')).status, 200);

    const result = await t.app.pruner.runOnce();
    assert.ok(result.idempotencyKeysDeleted >= 1);
    assert.deepEqual(await keys(), ['new-key']);
    const replay = await reserve('new-key');
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    // The admin's session outlives the rest of the file's tests only on the clock they started with.
    t.clock.offsetMs = offset;
  });

  test('uploads nothing points at are deleted after the grace period; referenced ones stay and are checked again later', async () => {
    const { productId, variantId } = await sellableVariant(t.admin);
    const author = await signUp(t);
    const [kept, orphan, dropped] = [
      await uploadedReviewImage(t, author.client),
      await uploadedReviewImage(t, author.client),
      await uploadedReviewImage(t, author.client),
    ];
    t.clock.advance(5 * 60_000 + 1000);
    const productImage = (await upload(t, await credentials(t.admin, 'products'), tinyPng())).body.url as string;
    const reviewed = await author.client.post(`${API}/reviews`, review(productId, [{ image_url: kept }, { image_url: dropped }]));
    assert.equal(reviewed.status, 201, reviewed.text);
    assert.equal(
      (await author.client.patch(`${API}/reviews/${reviewed.body.data.public_id}`, { images: [{ image_url: kept }] })).status,
      200,
    );
    assert.equal((await t.admin.patch(`${API}/admin/variants/${variantId}`, { images: [{ url: productImage }] })).status, 200);

    // Within the grace period nothing goes, referenced or not.
    let result = await t.app.pruner.runOnce();
    assert.equal(result.uploadsDeleted, 0);

    t.clock.advance(DAY + HOUR);
    result = await t.app.pruner.runOnce();
    assert.ok(result.uploadsDeleted >= 2, JSON.stringify(result));
    assert.deepEqual([await status(kept), await status(orphan), await status(dropped), await status(productImage)], [200, 404, 404, 200]);

    // Checked files are not looked at again until another grace period has passed; then a file
    // whose review is gone is deleted.
    assert.equal((await author.client.delete(`${API}/reviews/${reviewed.body.data.public_id}`)).status, 204);
    await t.app.pruner.runOnce();
    assert.equal(await status(kept), 200);
    t.clock.advance(DAY + HOUR);
    await t.app.pruner.runOnce();
    assert.deepEqual([await status(kept), await status(productImage)], [404, 200]);
  });

  test('expired upload tokens and delivered mail past their retention are deleted in batches; pending mail stays', async () => {
    const { client, email } = await signUp(t);
    const creds = await credentials(client);
    await t.db.updateTable('outbox').set({ delivered_at: t.clock.now() }).where('recipient', '=', email).execute();
    await t.db
      .insertInto('outbox')
      .values({ kind: 'verify_email', recipient: email, payload: JSON.stringify({ token: 'x', first_name: 'A' }) })
      .execute();

    t.clock.advance(DAY + 11 * 60_000);
    const result = await t.app.pruner.runOnce();
    assert.ok(result.uploadTokensDeleted >= 1);
    assert.equal(await t.db.selectFrom('upload_tokens').select('token').where('token', '=', creds.token).executeTakeFirst(), undefined);
    assert.equal(
      (await t.db.selectFrom('outbox').select('id').where('recipient', '=', email).where('delivered_at', 'is not', null).execute()).length,
      1,
    );

    t.clock.advance(30 * DAY);
    await t.app.pruner.runOnce();
    const left = await t.db.selectFrom('outbox').select(['delivered_at']).where('recipient', '=', email).execute();
    assert.deepEqual(
      left.map((row) => row.delivered_at),
      [null],
    );
  });
});

describe('address book cap', () => {
  test('racing creates stop at the cap with 409 ADDRESS_BOOK_FULL; deleting one makes room', async () => {
    const { client } = await signUp(t);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => client.post(`${API}/users/me/addresses`, addressInput({ label: `A${i}` }))),
    );
    const created = responses.filter((r) => r.status === 201);
    assert.equal(created.length, 5);
    for (const response of responses.filter((r) => r.status !== 201)) {
      assert.equal(response.status, 409, response.text);
      assert.equal(errorOf(response).code, 'ADDRESS_BOOK_FULL');
    }
    assert.equal((await client.get(`${API}/users/me/addresses`)).body.meta.total, 5);
    assert.equal((await client.delete(`${API}/users/me/addresses/${created[0]!.body.data.public_id}`)).status, 204);
    assert.equal((await client.post(`${API}/users/me/addresses`, addressInput())).status, 201);
  });
});
