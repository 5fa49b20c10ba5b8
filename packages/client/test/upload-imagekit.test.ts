import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.js';
import { PASSWORD, uniqueEmail } from '../../../test/helpers/factories.js';
import { tinyPng } from '../../../test/helpers/media.js';
import { ApiError } from '../src/index.js';
import { clientOf, staffClient } from './helpers.js';

/**
 * The upload helper with ImageKit configured: the service names ImageKit's
 * upload API in the credentials, so the file must go there, as ImageKit's
 * multipart fields, without cookies. A local server poses as ImageKit's
 * upload API: it checks the fields and the signature and answers as ImageKit does.
 */
const IMAGEKIT = {
  IMAGEKIT_PUBLIC_KEY: 'public_ik_test',
  IMAGEKIT_PRIVATE_KEY: 'private_ik_test',
  IMAGEKIT_URL_ENDPOINT: 'https://ik.imagekit.io/store',
};

/** The private key the stand-in checks signatures with: the service's, unless a test rotates it. */
let imagekitPrivateKey = IMAGEKIT.IMAGEKIT_PRIVATE_KEY;

type Received = {
  url: string;
  cookie: string | undefined;
  fields: Record<string, string>;
  file: { name: string; type: string; bytes: Buffer } | null;
  /** The parts' names in the order they were sent. */
  order: string[];
};
const received: Received[] = [];

async function formOf(request: IncomingMessage): Promise<FormData> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new Response(Buffer.concat(chunks), { headers: { 'content-type': request.headers['content-type'] ?? '' } }).formData();
}

async function answer(request: IncomingMessage, response: ServerResponse) {
  const form = await formOf(request);
  const fields: Record<string, string> = {};
  let file: Received['file'] = null;
  const order: string[] = [];
  for (const [name, value] of form) {
    order.push(name);
    if (typeof value === 'string') fields[name] = value;
    else file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  received.push({ url: request.url ?? '', cookie: request.headers.cookie, fields, file, order });
  const reply = (status: number, body: object) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  // ImageKit's checks, and its answers' shapes.
  if (request.method !== 'POST' || request.url !== '/api/v1/files/upload') return reply(404, { message: 'Not found' });
  const expected = createHmac('sha1', imagekitPrivateKey).update(`${fields.token}${fields.expire}`).digest('hex');
  if (fields.publicKey !== IMAGEKIT.IMAGEKIT_PUBLIC_KEY || fields.signature !== expected) {
    return reply(403, {
      message: 'Your request contains invalid signature. Please refer to our documentation.',
      help: 'For support kindly contact us at support@imagekit.io .',
    });
  }
  if (!file || !fields.fileName) return reply(400, { message: 'Missing file parameter for upload', help: '' });
  const name = `${fields.fileName.replace(/\.png$/, '')}_a1B2c3.png`;
  const filePath = `${fields.folder}${name}`;
  return reply(200, {
    fileId: '66f0c0ffee0123456789abcd',
    name,
    size: file.bytes.length,
    versionInfo: { id: '66f0c0ffee0123456789abcd', name: 'Version 1' },
    filePath,
    url: `${IMAGEKIT.IMAGEKIT_URL_ENDPOINT}${filePath}`,
    fileType: 'image',
    height: 1,
    width: 1,
    thumbnailUrl: `${IMAGEKIT.IMAGEKIT_URL_ENDPOINT}/tr:n-ik_ml_thumbnail${filePath}`,
    AITags: null,
  });
}
// A failed check is a failed test: the request ends with a 500 the client reports.
const imagekit = createServer((request, response) => void answer(request, response).catch(() => response.writeHead(500).end()));
await new Promise<void>((resolve) => imagekit.listen(0, '127.0.0.1', resolve));
const imagekitOrigin = `http://127.0.0.1:${(imagekit.address() as AddressInfo).port}`;

const t = await startTestApp(IMAGEKIT);
after(async () => {
  await t.close();
  await new Promise((resolve) => imagekit.close(resolve));
});

/** Sends what goes to ImageKit's upload host to the local stand-in, recording the URLs the client asked for. */
function toImageKit(asked: string[]): typeof fetch {
  return (input, init) => {
    const url = String(input);
    if (!url.startsWith('https://upload.imagekit.io/')) return fetch(input, init);
    asked.push(url);
    return fetch(imagekitOrigin + new URL(url).pathname, init);
  };
}

test('with ImageKit configured, upload() posts the file to the uploadEndpoint the credentials name, signed, without cookies', async () => {
  const admin = await staffClient(t);
  const { data: product } = await admin.POST('/api/v1/admin/products', { body: { name: 'Teacup', status: 'ACTIVE' } });
  const asked: string[] = [];
  const shopper = clientOf(t, { fetch: toImageKit(asked) });
  await shopper.auth.register({ email: uniqueEmail('ik'), password: PASSWORD, first_name: 'I', last_name: 'K' });
  const { data: credentials } = await shopper.GET('/api/v1/uploads/media-auth', { params: { query: { context: 'reviews' } } });
  assert.equal(credentials.uploadEndpoint, 'https://upload.imagekit.io/api/v1/files/upload');

  received.length = 0;
  const png = tinyPng();
  const uploaded = await shopper.upload(new Blob([new Uint8Array(png)], { type: 'image/png' }), { fileName: 'cup.png' });
  assert.deepEqual(asked, [credentials.uploadEndpoint]);
  assert.equal(received.length, 1);
  const [sent] = received;
  assert.equal(sent!.cookie, undefined, 'the session cookie never goes to the image host');
  assert.deepEqual(Object.keys(sent!.fields).sort(), ['expire', 'fileName', 'folder', 'publicKey', 'signature', 'token']);
  assert.equal(sent!.fields.fileName, 'cup.png');
  assert.equal(sent!.fields.folder, '/ecommerce/reviews/');
  assert.equal(sent!.fields.publicKey, IMAGEKIT.IMAGEKIT_PUBLIC_KEY);
  assert.match(sent!.fields.expire!, /^\d+$/);
  assert.notEqual(sent!.fields.token, credentials.token, 'fresh credentials for each upload');
  assert.equal(sent!.file?.name, 'cup.png');
  assert.equal(sent!.file?.type, 'image/png');
  assert.deepEqual(sent!.file?.bytes, png);
  // The file goes last, so the built-in host can refuse forged credentials before reading it.
  assert.equal(sent!.order.at(-1), 'file');

  assert.equal(uploaded.url, 'https://ik.imagekit.io/store/ecommerce/reviews/cup_a1B2c3.png');
  assert.equal(uploaded.filePath, '/ecommerce/reviews/cup_a1B2c3.png');
  assert.equal(uploaded.size, png.length);
  // The URL is one a review may name.
  const review = await shopper.reviews.create({
    product_public_id: product.public_id,
    rating: 4,
    title: 'Pretty',
    comment: 'Thin porcelain.',
    images: [{ image_url: uploaded.url }],
  });
  assert.deepEqual(
    review.images.map((image) => image.image_url),
    [uploaded.url],
  );
});

test("ImageKit's refusal is an ApiError with ImageKit's message", async () => {
  const shopper = clientOf(t, { fetch: toImageKit([]) });
  await shopper.auth.register({ email: uniqueEmail('ik-refused'), password: PASSWORD, first_name: 'I', last_name: 'R' });
  // The key was rotated in ImageKit but not yet in the service's environment: the service's signature is refused.
  imagekitPrivateKey = 'private_ik_rotated';
  try {
    const refused = await shopper
      .upload(new Blob([new Uint8Array(tinyPng())], { type: 'image/png' }), { fileName: 'cup.png' })
      .catch((e: unknown) => e);
    assert.ok(ApiError.is(refused, 'FORBIDDEN'), String(refused));
    assert.equal(refused.status, 403);
    assert.match(refused.message, /invalid signature/);
  } finally {
    imagekitPrivateKey = IMAGEKIT.IMAGEKIT_PRIVATE_KEY;
  }
});
