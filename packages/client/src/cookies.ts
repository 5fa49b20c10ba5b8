/**
 * Where a client outside the browser keeps its cookies (the session and the
 * pre-session cookie CSRF tokens are bound to). Browsers keep their own: in
 * browser mode no store is used. Any object with these two methods will do
 * (a store backed by a framework's cookie API, a file, a database row).
 */
export interface CookieStore {
  /** The `Cookie` header to send to `url`, if any. */
  get(url: URL): string | undefined | Promise<string | undefined>;
  /** Takes in a response's `Set-Cookie` lines; returns whether any cookie changed. */
  set(url: URL, setCookie: readonly string[]): boolean | Promise<boolean>;
}

/**
 * An in-memory cookie jar for one user agent (a script, a test, one SSR
 * request). `initial` is a `Cookie` header to start from: an incoming
 * request's, to act as its user. The API keeps its cookies on one host and
 * path, so the jar keeps name=value pairs and honours expiry, no more.
 */
export function createCookieJar(
  initial?: string | null,
): CookieStore & { readonly cookies: Map<string, string>; header(): string | undefined } {
  const cookies = new Map<string, string>();
  for (const pair of (initial ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  const header = () => (cookies.size > 0 ? [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') : undefined);
  return {
    cookies,
    header,
    get: header,
    set(_url, lines) {
      let changed = false;
      for (const line of lines) {
        const [pair = '', ...attributes] = line.split(';');
        const eq = pair.indexOf('=');
        if (eq <= 0) continue;
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        const expired = attributes.some((attribute) => {
          const [key = '', raw = ''] = attribute.trim().split('=');
          const k = key.toLowerCase();
          return (k === 'max-age' && Number(raw) <= 0) || (k === 'expires' && Date.parse(raw) <= Date.now());
        });
        if (expired || value === '') changed = cookies.delete(name) || changed;
        else if (cookies.get(name) !== value) {
          cookies.set(name, value);
          changed = true;
        }
      }
      return changed;
    },
  };
}
