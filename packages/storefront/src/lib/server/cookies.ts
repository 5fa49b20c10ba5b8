import type { CookieStore } from '@commerce/client';
import type { RequestEvent } from '@sveltejs/kit';
import { parse } from 'set-cookie-parser';
import { cookiePairs } from './cookie-names';

/**
 * The shopper's cookie jar for this request's API calls: it starts from the API's cookies the browser
 * sent (`relayed`: the session, the pre-session cookie CSRF tokens are bound to) and relays each of them
 * the API sets back to the browser with the API's attributes, so the shopper holds exactly what they
 * would hold talking to the API themselves. Other cookies (the storefront's own, a shop's analytics)
 * never reach the API. Nothing outlives the request.
 */
export function relayingJar(event: RequestEvent, relayed: ReadonlySet<string>): CookieStore & { has(name: string): boolean } {
  const cookies = new Map<string, string>();
  for (const [name, value] of cookiePairs(event.request.headers.get('cookie'))) if (relayed.has(name)) cookies.set(name, value);
  return {
    has: (name) => cookies.has(name),
    get: () => (cookies.size > 0 ? [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') : undefined),
    set(_url, lines) {
      let changed = false;
      for (const cookie of parse([...lines], { decodeValues: false })) {
        if (!relayed.has(cookie.name)) continue;
        const options = {
          path: cookie.path ?? '/',
          httpOnly: cookie.httpOnly ?? false,
          secure: cookie.secure ?? false,
          sameSite: (cookie.sameSite?.toLowerCase() ?? 'lax') as 'lax' | 'strict' | 'none',
        };
        const gone =
          cookie.value === '' ||
          (cookie.maxAge !== undefined && cookie.maxAge <= 0) ||
          (cookie.expires?.getTime() ?? Infinity) <= Date.now();
        if (gone) {
          changed = cookies.delete(cookie.name) || changed;
          event.cookies.delete(cookie.name, options);
        } else {
          changed = cookies.get(cookie.name) !== cookie.value || changed;
          cookies.set(cookie.name, cookie.value);
          event.cookies.set(cookie.name, cookie.value, {
            ...options,
            ...(cookie.expires ? { expires: cookie.expires } : {}),
            ...(cookie.maxAge !== undefined ? { maxAge: cookie.maxAge } : {}),
            encode: (value: string) => value,
          });
        }
      }
      return changed;
    },
  };
}
