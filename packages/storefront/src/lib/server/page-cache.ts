/**
 * A micro-cache of whole pages for visitors who send none of the cookies a page can depend on
 * (cookie-names.ts). Such a request carries nobody's session, cart or pre-session token, so its page
 * is the same for every such visitor, whatever analytics or consent cookies they bring; a
 * response that sets a cookie (a page whose forms need a CSRF token) or is not a plain 200 is never
 * kept. A page is fresh for `ttlMs`; after that, for up to STALE_FACTOR times as long, the first request
 * renders its successor while the others still get the kept page (so a busy page never makes every
 * visitor wait for a render at once). A missing page is rendered once however many ask for it at once.
 *
 * Bounded by bytes, not only by pages: every URL is a key (any query string makes one), so an
 * anonymous client asking for thousands of long, padded URLs must not grow the process. At most
 * MAX_BYTES per API (`instance`), counting each page's key, headers, body and room for its two
 * compressed forms, and at most MAX_PAGES; the least recently used go first, and a page past its
 * stale window is dropped when the next one is kept.
 */
import { API_COOKIES, carriesOnlyPersonalCookie, carriesPersonalCookie } from './cookie-names.js';
import { dropTracking } from '../tracking-params.js';

/** Bytes a Response takes as its body. */
type Bytes = Uint8Array<ArrayBuffer>;

/** How long a page is fresh by default (STOREFRONT_PAGE_CACHE_MS); after that it is served for STALE_FACTOR times as long while renewed. */
export const PAGE_TTL_MS = 5_000;
const STALE_FACTOR = 5;
const MAX_PAGES = 2_000;
export const MAX_BYTES = 32 * 1024 * 1024;

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Bytes;
  /** Compressed forms, made the first time a browser asks for one. */
  encoded: Map<string, Bytes>;
}

interface Entry {
  freshUntil: number;
  staleUntil: number;
  page: Promise<CachedPage | null>;
  /** The successor being rendered, while this stale entry is still sent. */
  renewing: boolean;
  /** Bytes counted for it once its page is kept (0 while it renders). */
  cost: number;
}

/** Entries in the order of their last use, oldest first (a Map keeps insertion order). */
interface Store {
  entries: Map<string, Entry>;
  bytes: number;
}

const stores = new WeakMap<object, Store>();

/** Bytes of memory a kept page stands for: its key, its headers, its body and, at most as large each, its gzip and brotli forms. */
const costOf = (key: string, page: CachedPage) =>
  key.length * 2 + page.headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0) * 2 + page.body.byteLength * 3;

function drop(store: Store, key: string, entry: Entry): void {
  if (store.entries.get(key) !== entry) return;
  store.entries.delete(key);
  store.bytes -= entry.cost;
}

function put(store: Store, key: string, entry: Entry): void {
  const old = store.entries.get(key);
  if (old) drop(store, key, old);
  store.entries.set(key, entry);
  store.bytes += entry.cost;
}

/** Drops pages past their stale window, then the least recently used, until the store is within its bounds. */
function trim(store: Store, now: number): void {
  for (const [key, entry] of store.entries) if (entry.cost > 0 && entry.staleUntil <= now) drop(store, key, entry);
  for (const [key, entry] of store.entries) {
    if (store.bytes <= MAX_BYTES && store.entries.size <= MAX_PAGES) break;
    drop(store, key, entry);
  }
}

/** A hit moves to the newest end, so the pages in use are the last to go. */
function touch(store: Store, key: string, entry: Entry): void {
  store.entries.delete(key);
  store.entries.set(key, entry);
}

/** Whether a request may be answered from (and fill) the cache: one carrying no cookie a page can depend on, and no credentials. */
export const cacheable = (request: Request): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  !carriesPersonalCookie(request.headers.get('cookie')) &&
  !request.headers.has('authorization');

/**
 * Whether a request that may not fill the cache may still be answered from it: one whose only cookie a
 * page can depend on is the pre-session cookie (a visitor who once opened a form, or signed out). That
 * cookie changes only a page that asks for a CSRF token, and such a page, rendered for a visitor
 * without one, sets the cookie and is never kept: every kept page is one this visitor would get too.
 */
export const answerableFromCache = (request: Request): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  carriesOnlyPersonalCookie(request.headers.get('cookie'), API_COOKIES.presession) &&
  !request.headers.has('authorization');

/**
 * The key a request's page is kept under: the URL as the browser asked for it, origin included (a page
 * depends on the name it was asked under: its CSP names the image host unless that is the page's own
 * origin, and a storefront on its own without SHOP_ORIGIN builds canonical URLs from the Host header,
 * so one host name's page must never answer for another). Not SvelteKit's `event.url`, which names
 * the page for a page's data too (`/p/x/__data.json`, asked for on a navigation without reload, is
 * `/p/x` there): the page and its JSON would share one entry. Without the campaign tags and click IDs
 * (tracking-params.ts), which the page is rendered without.
 */
export const pageKey = (request: Request): string => {
  const url = dropTracking(new URL(request.url));
  return url.origin + url.pathname + url.search;
};

/** The page kept from `response`, or null when it must not be kept (its body then unread). */
async function keep(response: Response): Promise<CachedPage | null> {
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || response.headers.has('set-cookie') || !/^(text\/html|application\/json)/.test(type)) return null;
  return { status: 200, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()), encoded: new Map() };
}

/** The page kept under `key` while it is fresh (one being rendered is waited for), else null; never renders. */
export async function freshPage(instance: object, key: string): Promise<CachedPage | null> {
  const hit = stores.get(instance)?.entries.get(key);
  return hit && hit.freshUntil > Date.now() ? hit.page.catch(() => null) : null;
}

export async function cachedPage(
  instance: object,
  key: string,
  render: () => Promise<Response>,
  ttlMs = PAGE_TTL_MS,
): Promise<CachedPage | Response> {
  const staleMs = ttlMs * STALE_FACTOR;
  let store = stores.get(instance);
  if (!store) stores.set(instance, (store = { entries: new Map(), bytes: 0 }));
  const now = Date.now();
  const hit = store.entries.get(key);
  if (hit && (hit.freshUntil > now || (hit.renewing && hit.staleUntil > now))) {
    // Fresh, or stale while another request renders its successor.
    const page = await hit.page;
    if (page) {
      if (store.entries.get(key) === hit) touch(store, key, hit);
      return page;
    }
  }
  const stale = hit && hit.staleUntil > now && !hit.renewing ? hit : null;
  if (stale) stale.renewing = true;

  let fresh: Response | null = null;
  const page = render().then((response) => {
    fresh = response;
    return keep(response);
  });
  const entry: Entry = { freshUntil: now + ttlMs, staleUntil: now + ttlMs + staleMs, page, renewing: false, cost: 0 };
  // While a stale page is renewed, others keep getting it; otherwise they wait for this render.
  if (!stale) {
    put(store, key, entry);
    trim(store, now);
  }
  const made = await page.catch((error: unknown) => {
    drop(store, key, stale ?? entry);
    throw error;
  });
  if (made) {
    const kept = stale ? { ...entry, freshUntil: Date.now() + ttlMs, staleUntil: Date.now() + ttlMs + staleMs } : entry;
    // Counted once kept, and only while it is still the entry under its key (a newer render may have replaced it).
    if (stale ? store.entries.get(key) === stale : store.entries.get(key) === entry) {
      put(store, key, { ...kept, cost: costOf(key, made) });
      trim(store, Date.now());
    }
    return made;
  }
  drop(store, key, stale ?? entry);
  // Not kept: the one response rendered, its body unread.
  return fresh!;
}

/** What is kept for an API, for tests and the record: pages and the bytes they are counted at. */
export function pageCacheSize(instance: object): { pages: number; bytes: number } {
  const store = stores.get(instance);
  return { pages: store?.entries.size ?? 0, bytes: store?.bytes ?? 0 };
}
