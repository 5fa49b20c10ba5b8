/**
 * A small HTTP client for tests: real requests over a socket, a cookie jar,
 * and a CSRF token fetched automatically before writes (unless a test sets
 * the header itself or passes `csrf: false`).
 */
export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body, sent as is (malformed JSON, a file's bytes). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** false: send no CSRF header; a string: send that one. */
  csrf?: boolean | string;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Client {
  readonly cookies = new Map<string, string>();
  private csrfToken: string | null = null;

  constructor(readonly baseUrl: string) {}

  get(path: string, options: RequestOptions = {}) {
    return this.request('GET', path, options);
  }
  post(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('POST', path, { ...options, body });
  }
  patch(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('PATCH', path, { ...options, body });
  }
  put(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('PUT', path, { ...options, body });
  }
  delete(path: string, options: RequestOptions = {}) {
    return this.request('DELETE', path, options);
  }

  /** The token GET /auth/csrf-token gives for the jar's current cookies. */
  async csrf(): Promise<string> {
    if (!this.csrfToken) {
      const response = await this.request('GET', '/api/v1/auth/csrf-token');
      this.csrfToken = response.body.data.csrf_token as string;
    }
    return this.csrfToken;
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (WRITES.has(method) && options.csrf !== false && !('x-csrf-token' in headers)) {
      headers['x-csrf-token'] = typeof options.csrf === 'string' ? options.csrf : await this.csrf();
      if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    let payload: string | Uint8Array | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body: payload });
    this.absorbCookies(response.headers);
    const text = await response.text();
    let body: any = null;
    if (text && (response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body, text };
  }

  private absorbCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [k = '', v = ''] = a.trim().split('=');
        return (k.toLowerCase() === 'expires' && new Date(v).getTime() < Date.now()) || (k.toLowerCase() === 'max-age' && Number(v) <= 0);
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
      this.csrfToken = null; // the token is bound to the cookie it came from
    }
  }
}
