import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(json|xml))/;
/** Smaller bodies gain too little to be worth the work. */
const MIN_BYTES = 1024;

/** The encoding a request accepts that we send: brotli, else gzip, else none. */
export function encodingFor(request: Request): 'br' | 'gzip' | null {
  const accepted = request.headers.get('accept-encoding') ?? '';
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return null;
}

/** Bytes a Response takes as its body. */
export type Bytes = Uint8Array<ArrayBuffer>;

export function encode(body: Bytes, encoding: 'br' | 'gzip'): Bytes {
  const out =
    encoding === 'br'
      ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : gzipSync(body, { level: 6 });
  return out as Bytes;
}

export const compressible = (headers: Headers) => COMPRESSIBLE.test(headers.get('content-type') ?? '') && !headers.has('content-encoding');

/** The response with its body compressed for the browser (pages are 20-60 KB of HTML; assets come precompressed). */
export async function compressed(request: Request, response: Response): Promise<Response> {
  const encoding = encodingFor(request);
  if (!encoding || !response.body || !compressible(response.headers)) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.append('vary', 'accept-encoding');
  if (body.length < MIN_BYTES) return new Response(body, { status: response.status, statusText: response.statusText, headers });
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  return new Response(encode(body, encoding), { status: response.status, statusText: response.statusText, headers });
}
