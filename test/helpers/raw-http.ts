import http from 'node:http';

export interface RawAnswer {
  status: number;
  contentType: string;
  setCookies: string[];
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One HTTP request with its path sent exactly as written. fetch parses the URL first (WHATWG), so
 * `%2e%2e` becomes `..` and is resolved away before anything is sent: `/media/%2e%2e/media.key`
 * leaves as `/media.key`. Probes of how the service reads odd paths need the bytes as they are.
 */
export function requestAsWritten(
  base: string,
  rawPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  // A length as fetch sends it (http.request would otherwise send the body chunked).
  const headers = {
    ...options.headers,
    ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
  };
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path: rawPath, method: options.method ?? 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? '',
          setCookies: response.headers['set-cookie'] ?? [],
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}
