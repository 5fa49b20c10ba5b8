import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { errorOf, signInAs, signUp } from './helpers/factories.js';
import { credentials, local, mediaKey, paddedPng, picture, pngChunk, tinyPng, upload } from './helpers/media.js';
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
    assert.match(fileId, /^[0-9a-f]{32}$/);
    assert.equal(name, `${fileId}.png`);
    assert.equal(filePath, `/ecommerce/reviews/${name}`);
    assert.equal(url, `${t.config.publicBaseUrl}/media/ecommerce/reviews/${name}`);

    const served = await fetch(local(t, url));
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    // The picture as the host encoded it again (clean-image.ts): the same pixel, the size it says.
    const bytes = Buffer.from(await served.arrayBuffer());
    assert.equal(size, bytes.length);
    const { default: sharp } = await import('sharp');
    assert.deepEqual(await sharp(bytes).raw().toBuffer(), await sharp(png).raw().toBuffer());

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
    const gif = await picture('gif');
    const response = await upload(t, await credentials(t.customer), gif);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.match(response.body.name, /\.gif$/);
    const served = await fetch(local(t, response.body.url));
    assert.equal(served.headers.get('content-type'), 'image/gif');
  });

  test('JPEG and WebP are recognised', async () => {
    const [jpeg, webp] = await Promise.all([picture('jpeg'), picture('webp')]);
    assert.match((await upload(t, await credentials(t.customer), jpeg)).body.name, /\.jpg$/);
    assert.match((await upload(t, await credentials(t.customer), webp)).body.name, /\.webp$/);
  });

  test('a token speaks for its owner as they are when the file arrives: suspended, or no longer staff for product images, it is 403', async () => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const staff = await signInAs(t, 'ADMIN');
    const productCreds = await credentials(staff.client, 'products');
    const files = async () => (await t.db.selectFrom('media_files').select('path').execute()).length;
    const before = await files();
    assert.equal((await owner.client.patch(`/api/v1/admin/users/${staff.user.public_id}/role`, { role: 'CUSTOMER' })).status, 200);
    const demoted = await upload(t, productCreds, tinyPng());
    assert.equal(demoted.status, 403, JSON.stringify(demoted.body));
    assert.match(demoted.body.message, /Only admins may upload product images/);

    const buyer = await signUp(t);
    const reviewCreds = await credentials(buyer.client);
    assert.equal((await t.admin.post(`/api/v1/admin/users/${buyer.user.public_id}/suspend`)).status, 200);
    const suspended = await upload(t, reviewCreds, tinyPng());
    assert.equal(suspended.status, 403, JSON.stringify(suspended.body));
    assert.match(suspended.body.message, /can no longer upload/);
    assert.equal(await files(), before, 'nothing stored');
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

  test('a file over 5 MB is 413; exactly 5 MB is accepted, and what is kept is the picture without its padding', async () => {
    const response = await upload(t, await credentials(t.customer), paddedPng(FIVE_MB + 1));
    assert.equal(response.status, 413);
    assert.match(response.body.message, /5 MB/);
    const ok = await upload(t, await credentials(t.customer), paddedPng(FIVE_MB));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.ok(ok.body.size < 1000, `${ok.body.size} bytes kept`);
  });

  test("a photo's metadata (where it was taken, the camera, the owner) is not kept; its orientation is applied to the pixels", async () => {
    const { default: sharp } = await import('sharp');
    // 60 x 20, to be shown turned a quarter (EXIF orientation 6), with GPS and the owner's name.
    const photo = await sharp({ create: { width: 60, height: 20, channels: 3, background: '#0f766e' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'PhoneMaker', Model: 'Phone 9', Artist: 'Ada Customer' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
      })
      .toBuffer();
    const sent = await sharp(photo).metadata();
    assert.ok(sent.exif && sent.orientation === 6 && photo.includes('Ada Customer'), 'precondition: the photo carries EXIF');
    const response = await upload(t, await credentials(t.customer), photo);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const served = Buffer.from(await (await fetch(local(t, response.body.url))).arrayBuffer());
    const kept = await sharp(served).metadata();
    assert.equal(kept.exif, undefined, 'no EXIF');
    assert.equal(kept.xmp, undefined, 'no XMP');
    assert.equal(kept.orientation, undefined);
    assert.deepEqual([kept.width, kept.height], [20, 60], 'turned as the camera said');
    for (const text of ['PhoneMaker', 'Ada Customer', 'GPS']) assert.ok(!served.includes(text), `${text} is gone`);
  });

  test('bytes that only start like an image, and a picture that declares too many pixels, are 400; a large picture is scaled down', async () => {
    const creds = await credentials(t.customer);
    const polyglot = Buffer.from('GIF89a<html><script>alert(document.cookie)</script></html>', 'latin1');
    const refused = await upload(t, creds, polyglot);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(refused.body.message, /could not be read as an image/);
    // A few bytes that declare a 30000 x 30000 picture.
    const header = Buffer.alloc(13);
    header.writeUInt32BE(30_000, 0);
    header.writeUInt32BE(30_000, 4);
    header.set([8, 2, 0, 0, 0], 8);
    const bomb = Buffer.concat([tinyPng().subarray(0, 8), pngChunk('IHDR', header), tinyPng().subarray(33)]);
    const huge = await upload(t, creds, bomb);
    assert.equal(huge.status, 400, JSON.stringify(huge.body));
    assert.match(huge.body.message, /larger than 40 megapixels/);
    // The token was never spent on them.
    const wide = await upload(t, creds, await picture('png', 4000, 100));
    assert.equal(wide.status, 200, JSON.stringify(wide.body));
    const { default: sharp } = await import('sharp');
    const kept = await sharp(Buffer.from(await (await fetch(local(t, wide.body.url))).arrayBuffer())).metadata();
    assert.deepEqual([kept.width, kept.height], [2560, 64]);
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
