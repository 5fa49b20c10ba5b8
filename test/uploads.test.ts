import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { errorOf, signUp } from './helpers/factories.js';
import { credentials, local, mediaKey, tinyPng, upload } from './helpers/media.js';
import { requestAsWritten } from './helpers/raw-http.js';
import { useApp } from './helpers/use-app.js';

/** Upload credentials (contract section 5) and the local image host that honours them. */

const t = useApp({ as: ['CUSTOMER', 'ADMIN'] });

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FIVE_MB = 5 * 1024 * 1024;

describe('GET /uploads/media-auth', () => {
  test('401 without a session', async () => {
    const response = await t.client().get('/api/v1/uploads/media-auth');
    assert.equal(response.status, 401);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
  });

  test('signs ImageKit-style: hex(HMAC-SHA1(private key, token + expire)), valid 10 minutes, recorded for the user', async () => {
    const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
    const response = await t.customer.get('/api/v1/uploads/media-auth?context=reviews');
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    const data = response.body.data;
    assert.deepEqual(Object.keys(data).sort(), ['expire', 'folder', 'publicKey', 'signature', 'token', 'uploadEndpoint', 'urlEndpoint']);
    assert.match(data.token, UUID_V4);
    assert.ok(data.expire >= nowSeconds + 600 && data.expire <= nowSeconds + 602, `expire ${data.expire} vs now ${nowSeconds}`);
    assert.equal(data.folder, '/ecommerce/reviews/');
    assert.equal(data.publicKey, 'public_local');
    assert.equal(data.urlEndpoint, `${t.config.publicBaseUrl}/media`);
    assert.equal(data.uploadEndpoint, `${t.config.publicBaseUrl}/media/api/v1/files/upload`);

    // The key is generated once into the database, so every instance signs and checks with it.
    const privateKey = await mediaKey(t);
    assert.ok(privateKey.length >= 32);
    const expected = createHmac('sha1', privateKey).update(`${data.token}${data.expire}`).digest('hex');
    assert.equal(data.signature, expected);

    const stored = await t.db.selectFrom('upload_tokens').selectAll().where('token', '=', data.token).executeTakeFirstOrThrow();
    const user = await t.customer.get('/api/v1/users/me');
    const owner = await t.db.selectFrom('users').select('id').where('public_id', '=', user.body.data.public_id).executeTakeFirstOrThrow();
    assert.equal(stored.user_id, owner.id);
    assert.equal(stored.folder, '/ecommerce/reviews/');
    assert.equal(stored.expires_at.getTime(), data.expire * 1000);
    assert.equal(stored.used_at, null);
  });

  test('every call issues a fresh token', async () => {
    const [a, b] = [await credentials(t.customer), await credentials(t.customer)];
    assert.notEqual(a.token, b.token);
    assert.notEqual(a.signature, b.signature);
  });

  test('an unknown or missing context falls back to reviews', async () => {
    assert.equal((await credentials(t.customer, 'avatars')).folder, '/ecommerce/reviews/');
    const response = await t.customer.get('/api/v1/uploads/media-auth');
    assert.equal(response.body.data.folder, '/ecommerce/reviews/');
  });

  test('products: a customer gets 403, an admin the products folder', async () => {
    const denied = await t.customer.get('/api/v1/uploads/media-auth?context=products');
    assert.equal(denied.status, 403);
    assert.equal(errorOf(denied).code, 'FORBIDDEN');
    assert.equal((await credentials(t.admin, 'products')).folder, '/ecommerce/products/');
  });
});

describe('POST /media/api/v1/files/upload (local image host)', () => {
  test('stores a PNG and serves it at the returned url as image/png', async () => {
    const png = tinyPng();
    const creds = await credentials(t.customer);
    const response = await upload(t, creds, png);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const { fileId, name, url, filePath, size, fileType } = response.body;
    assert.equal(fileType, 'image');
    assert.equal(size, png.length);
    assert.match(fileId, /^[0-9a-f]{32}$/);
    assert.equal(name, `${fileId}.png`);
    assert.equal(filePath, `/ecommerce/reviews/${name}`);
    assert.equal(url, `${t.config.publicBaseUrl}/media/ecommerce/reviews/${name}`);

    const served = await fetch(local(t, url));
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);

    const used = await t.db.selectFrom('upload_tokens').select('used_at').where('token', '=', creds.token).executeTakeFirstOrThrow();
    assert.ok(used.used_at instanceof Date);
  });

  test('a stored file revalidates as HTTP says (a weak tag, a list, *): 304 without reading its bytes; a missing one is 404', async () => {
    const response = await upload(t, await credentials(t.customer), tinyPng());
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const url = local(t, response.body.url);
    const served = await fetch(url);
    const etag = served.headers.get('etag')!;
    assert.equal(etag, `"${response.body.name}"`);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const before = t.queries.length;
      const revalidated = await fetch(url, { headers: { 'if-none-match': header } });
      assert.equal(revalidated.status, 304, header);
      assert.equal(revalidated.headers.get('etag'), etag);
      assert.equal(revalidated.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const reads = t.queries.slice(before).filter((q) => q.includes('media_files'));
      assert.equal(reads.length, 1, header);
      assert.ok(!reads[0]!.includes('content'), `${header}: a revalidation reads no bytes: ${reads[0]}`);
    }
    assert.equal((await fetch(url, { headers: { 'if-none-match': '"other"' } })).status, 200);
    const missing = await fetch(url.replace(/[0-9a-f]{32}/, '0'.repeat(32)), { headers: { 'if-none-match': '*' } });
    assert.equal(missing.status, 404);
  });

  test('the type comes from the content: GIF bytes named x.png are stored and served as GIF', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(20)]);
    const response = await upload(t, await credentials(t.customer), gif);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.match(response.body.name, /\.gif$/);
    const served = await fetch(local(t, response.body.url));
    assert.equal(served.headers.get('content-type'), 'image/gif');
  });

  test('JPEG and WebP are recognised', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)]);
    const webp = Buffer.concat([
      Buffer.from('RIFF', 'latin1'),
      Buffer.from([24, 0, 0, 0]),
      Buffer.from('WEBPVP8 ', 'latin1'),
      Buffer.alloc(12),
    ]);
    assert.match((await upload(t, await credentials(t.customer), jpeg)).body.name, /\.jpg$/);
    assert.match((await upload(t, await credentials(t.customer), webp)).body.name, /\.webp$/);
  });

  test('a bad signature is 403 and does not use up the token', async () => {
    const creds = await credentials(t.customer);
    const forged = createHmac('sha1', 'not-the-key').update(`${creds.token}${creds.expire}`).digest('hex');
    const response = await upload(t, creds, tinyPng(), { signature: forged });
    assert.equal(response.status, 403);
    assert.match(response.body.message, /signature/);
    // ImageKit's top-level message, beside the error envelope with the request ID.
    assert.equal(errorOf({ ...response, text: JSON.stringify(response.body) }).code, 'FORBIDDEN');
    assert.equal(response.body.error.message, response.body.message);
    assert.equal((await upload(t, creds, tinyPng())).status, 200);
  });

  test('a signature for another expiry is 403 (expire cannot be extended)', async () => {
    const creds = await credentials(t.customer);
    const response = await upload(t, creds, tinyPng(), { expire: String(creds.expire + 3600) });
    assert.equal(response.status, 403);
  });

  test('a wrong public key is 403', async () => {
    const response = await upload(t, await credentials(t.customer), tinyPng(), { publicKey: 'public_other' });
    assert.equal(response.status, 403);
    assert.match(response.body.message, /publicKey/);
  });

  test('a token is single use: the second upload is 403', async () => {
    const creds = await credentials(t.customer);
    assert.equal((await upload(t, creds, tinyPng())).status, 200);
    const again = await upload(t, creds, tinyPng());
    assert.equal(again.status, 403);
    assert.match(again.body.message, /already been used/);
  });

  test('two uploads racing with one token: exactly one wins', async () => {
    const creds = await credentials(t.customer);
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => upload(t, creds, tinyPng())))).map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 403, 403, 403, 403, 403]);
  });

  test('a reviews token used for the products folder is 403; it still works for its own folder', async () => {
    const creds = await credentials(t.customer);
    const response = await upload(t, creds, tinyPng(), { folder: '/ecommerce/products/' });
    assert.equal(response.status, 403);
    assert.match(response.body.message, /another folder/);
    assert.equal((await upload(t, creds, tinyPng())).status, 200);
  });

  test('a token the service never issued is 403 even when signed with its key', async () => {
    const creds = await credentials(t.customer);
    const privateKey = await mediaKey(t);
    const token = '3f0c3a52-6a8e-4f6b-9a55-0d6d2f1b7c11';
    const signature = createHmac('sha1', privateKey).update(`${token}${creds.expire}`).digest('hex');
    const response = await upload(t, creds, tinyPng(), { token, signature });
    assert.equal(response.status, 403);
    assert.match(response.body.message, /not issued/);
  });

  test('a file named x.png that is not an image is 400, and the token stays usable', async () => {
    const creds = await credentials(t.customer);
    const response = await upload(t, creds, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'));
    assert.equal(response.status, 400);
    assert.match(response.body.message, /not a JPEG, PNG, GIF or WebP/);
    assert.equal((await upload(t, creds, tinyPng())).status, 200);
  });

  test('a file over 5 MB is 413; exactly 5 MB is accepted', async () => {
    const big = Buffer.alloc(FIVE_MB + 1);
    tinyPng().copy(big);
    const response = await upload(t, await credentials(t.customer), big);
    assert.equal(response.status, 413);
    assert.match(response.body.message, /5 MB/);
    const limit = big.subarray(0, FIVE_MB);
    const ok = await upload(t, await credentials(t.customer), limit);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.size, FIVE_MB);
  });

  test('missing fields are 400 with an ImageKit-style message in the envelope', async () => {
    const creds = await credentials(t.customer);
    for (const field of ['token', 'signature', 'expire', 'publicKey', 'folder', 'fileName']) {
      const response = await upload(t, creds, tinyPng(), { [field]: null });
      assert.equal(response.status, 400, field);
      assert.equal(response.body.message, `Missing ${field} parameter`);
      assert.equal(response.body.error.code, 'VALIDATION_ERROR');
      assert.equal(response.headers.get('x-request-id'), response.body.request_id);
    }
    const noFile = await upload(t, creds, null);
    assert.equal(noFile.status, 400);
    assert.match(noFile.body.message, /Missing file/);
  });

  test('a JSON body is 415 with an ImageKit-style message in the envelope', async () => {
    const creds = await credentials(t.customer);
    const response = await fetch(local(t, creds.uploadEndpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file: 'aGVsbG8=', ...creds }),
    });
    assert.equal(response.status, 415);
    const body = (await response.json()) as { message: unknown; error: { code: string } };
    assert.ok(typeof body.message === 'string');
    assert.equal(body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('an expired token is 403 (the handler uses the injected clock)', async () => {
    const creds = await credentials(t.customer);
    t.clock.advance(10 * 60 * 1000 + 1000);
    const response = await upload(t, creds, tinyPng());
    assert.equal(response.status, 403);
    assert.match(response.body.message, /expired/);
    // Fresh credentials are issued against the same clock and still work.
    assert.equal((await upload(t, await credentials(t.customer), tinyPng())).status, 200);
  });

  test('the media host serves nothing but stored files', async () => {
    const key = await mediaKey(t);
    for (const probe of [
      '/media/%2e%2e/media.key',
      '/media/..%2fmedia.key',
      '/media/ecommerce/reviews/missing.png',
      '/media/ecommerce/reviews/',
    ]) {
      // As written: fetch would resolve `%2e%2e` and ask the shop for /media.key instead.
      const { status, text } = await requestAsWritten(t.baseUrl, probe);
      assert.equal(status, 404, `${probe}: ${text.slice(0, 300)}`);
      assert.ok(!text.includes(key), probe);
    }
  });
});

describe('with ImageKit configured', () => {
  const ik = useApp({
    env: {
      IMAGEKIT_PUBLIC_KEY: 'public_abc123',
      IMAGEKIT_PRIVATE_KEY: 'private_def456',
      IMAGEKIT_URL_ENDPOINT: 'https://ik.imagekit.io/store',
    },
  });

  test('credentials carry the ImageKit keys and upload API; the local host is off', async () => {
    const { client } = await signUp(ik);
    const data = await credentials(client);
    assert.equal(data.publicKey, 'public_abc123');
    assert.equal(data.urlEndpoint, 'https://ik.imagekit.io/store');
    assert.equal(data.uploadEndpoint, 'https://upload.imagekit.io/api/v1/files/upload');
    assert.equal(data.signature, createHmac('sha1', 'private_def456').update(`${data.token}${data.expire}`).digest('hex'));
    const localUpload = await fetch(`${ik.baseUrl}/media/api/v1/files/upload`, { method: 'POST' });
    assert.equal(localUpload.status, 404);
  });
});

test('the upload routes are documented under Uploads and Media; the file route is hidden', async () => {
  const spec = (await t.client().get('/openapi.json')).body;
  assert.deepEqual(spec.paths['/api/v1/uploads/media-auth'].get.tags, ['Uploads']);
  assert.deepEqual(spec.paths['/media/api/v1/files/upload'].post.tags, ['Media']);
  assert.equal(spec.paths['/media/*'], undefined);
});
