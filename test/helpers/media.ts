import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import type { RunningApp } from './app.js';
import type { Client } from './client.js';

/** Upload test data: real image bytes and the two-step upload a storefront performs. */

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of `bytes` exactly: the 1x1 picture and a private ancillary chunk of padding (metadata the host drops). */
export function paddedPng(bytes: number): Buffer {
  const picture = tinyPng();
  const iend = picture.subarray(picture.length - 12);
  const padding = pngChunk('prVt', Buffer.alloc(bytes - picture.length - 12));
  return Buffer.concat([picture.subarray(0, picture.length - 12), padding, iend]);
}

/** A real picture of a kind, drawn by sharp: `width` x `height` of one colour. */
export async function picture(kind: 'jpeg' | 'png' | 'gif' | 'webp', width = 48, height = 32): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const canvas = sharp({ create: { width, height, channels: 3, background: '#c2410c' } });
  return canvas.toFormat(kind).toBuffer();
}

/** A valid 1x1 RGBA PNG, built byte by byte. */
export function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter, no interlace
  const scanline = Buffer.from([0, 0xff, 0x80, 0x00, 0xff]); // filter byte, one orange pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface Credentials {
  token: string;
  expire: number;
  signature: string;
  publicKey: string;
  urlEndpoint: string;
  folder: string;
  uploadEndpoint: string;
}

export async function credentials(client: Client, context = 'reviews'): Promise<Credentials> {
  const response = await client.get(`/api/v1/uploads/media-auth?context=${context}`);
  if (response.status !== 200) throw new Error(`media-auth: ${response.status} ${response.text}`);
  return response.body.data;
}

/** The service's public URLs name PUBLIC_BASE_URL; the test server listens elsewhere. */
export const local = (t: Pick<RunningApp, 'baseUrl'>, url: string) => t.baseUrl + new URL(url).pathname;

/** POSTs the multipart form an ImageKit client sends, the file last; `fields` overrides or (with null) removes a field. */
export async function upload(
  t: Pick<RunningApp, 'baseUrl'>,
  creds: Credentials,
  file: Buffer | null,
  fields: Record<string, string | null> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const form = new FormData();
  const values: Record<string, string | null> = {
    fileName: 'x.png',
    token: creds.token,
    expire: String(creds.expire),
    signature: creds.signature,
    publicKey: creds.publicKey,
    folder: creds.folder,
    ...fields,
  };
  for (const [name, value] of Object.entries(values)) if (value !== null) form.append(name, value);
  // The credential fields go first: the host checks them before it reads the file.
  if (file) form.append('file', new Blob([file]), 'x.png');
  const response = await fetch(local(t, creds.uploadEndpoint), { method: 'POST', body: form });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** The built-in image host's signing key, generated into the database on first use. */
export async function mediaKey(t: RunningApp): Promise<string> {
  const row = await t.db.selectFrom('service_secrets').select('value').where('name', '=', 'media_signing_key').executeTakeFirstOrThrow();
  return row.value;
}

/** Uploads a tiny PNG as `client` and returns the URL to put in a review. */
export async function uploadedReviewImage(t: RunningApp, client: Client): Promise<string> {
  const response = await upload(t, await credentials(client), tinyPng());
  if (response.status !== 200) throw new Error(`upload: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.url;
}

const held = new Set<ClientRequest>();

/** Cuts off every upload `heldUpload` started that is still open. */
export function abortHeldUploads(): void {
  for (const request of held) request.destroy();
}

export interface UploadAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * An upload whose body is sent in two steps: the form up to the first
 * `head` bytes of the file now, the rest (and the closing boundary) only when
 * the test calls `finish`, so a test can see what the host answers while the
 * file is still on its way. `fileFirst` puts the file part before the fields;
 * `contentLength` declares a length (else the body is chunked).
 */
export function heldUpload(
  t: Pick<RunningApp, 'baseUrl'>,
  creds: Credentials,
  head: Buffer,
  options: { fields?: Record<string, string>; fileFirst?: boolean; contentLength?: number } = {},
) {
  const boundary = `held${Date.now()}${Math.random().toString(36).slice(2)}`;
  const values: Record<string, string> = {
    fileName: 'x.png',
    token: creds.token,
    expire: String(creds.expire),
    signature: creds.signature,
    publicKey: creds.publicKey,
    folder: creds.folder,
    ...options.fields,
  };
  const fields = Object.entries(values)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const fileHeader = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`;
  const request = httpRequest(local(t, creds.uploadEndpoint), {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(options.contentLength ? { 'content-length': String(options.contentLength) } : {}),
    },
  });
  const answer = new Promise<UploadAnswer>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text ? JSON.parse(text) : null }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
  void answer.catch(() => {}); // a test that cuts the request off may never read it
  held.add(request);
  request.on('close', () => held.delete(request));
  if (options.fileFirst) request.write(Buffer.concat([Buffer.from(fileHeader), head]));
  else request.write(Buffer.concat([Buffer.from(fields + fileHeader), head]));
  return {
    answer,
    /** The answer, or a failure when none arrives within `ms` while the file is held back. */
    answerWithin(ms: number): Promise<UploadAnswer> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms while the file was still being sent`)), ms);
      });
      return Promise.race([answer, late]).finally(() => clearTimeout(timer));
    },
    finish(rest: Buffer): Promise<UploadAnswer> {
      const tail = options.fileFirst ? `\r\n${fields}--${boundary}--\r\n` : `\r\n--${boundary}--\r\n`;
      request.end(Buffer.concat([rest, Buffer.from(tail)]));
      return answer;
    },
  };
}
