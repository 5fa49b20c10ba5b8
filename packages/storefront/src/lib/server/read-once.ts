import type { Cookies } from '@sveltejs/kit';
import { OWN_COOKIES } from './cookie-names.js';

/** The parts of a request a read-once cookie needs: its cookies, and its URL for the scheme and path. */
export interface CookieEvent {
  cookies: Cookies;
  url: URL;
}

export interface ReadOnceCookie<T> {
  readonly name: string;
  keep(event: CookieEvent, value: T): void;
  /** The value kept, once: the cookie is deleted as it is read. Null when there is none or it does not parse. */
  take(event: CookieEvent): T | null;
}

interface Options<T> {
  name: string;
  /** The page that says it: a fixed path, or the path of the request that keeps it. */
  path: string | 'this page';
  maxAgeSeconds: number;
  write(value: T): string;
  /** Parses what came back, bounding every part: the browser sends whatever it likes. */
  read(raw: string): T | null;
}

/**
 * A word carried across one redirect (post, redirect, get): a cookie of the storefront's own, httpOnly,
 * short-lived, scoped to the page that says it and gone once read. Never in the URL, where any link
 * could say it; never forwarded to the API (only its own cookies are, cookies.ts), and listed in
 * OWN_COOKIES so a page that says one is never kept for others (cookie-names.ts).
 */
export function readOnceCookie<T>(options: Options<T>): ReadOnceCookie<T> {
  if (!OWN_COOKIES.has(options.name)) throw new Error(`The read-once cookie ${options.name} is not listed in cookie-names.ts`);
  const scope = (event: CookieEvent) => ({
    path: options.path === 'this page' ? event.url.pathname : options.path,
    secure: event.url.protocol === 'https:',
  });
  return {
    name: options.name,
    keep(event, value) {
      const attributes = { ...scope(event), httpOnly: true, sameSite: 'lax' as const, maxAge: options.maxAgeSeconds };
      event.cookies.set(options.name, options.write(value), attributes);
    },
    take(event) {
      const raw = event.cookies.get(options.name);
      if (raw === undefined) return null;
      event.cookies.delete(options.name, scope(event));
      return options.read(raw);
    },
  };
}
