/**
 * A micro-cache of whole pages for visitors who send no cookie at all. Such a request cannot carry
 * anyone's session, cart or pre-session token, so its page is the same for every such visitor; a
 * response that sets a cookie (a page whose forms need a CSRF token) or is not a plain 200 is never
 * kept. Pages are kept for PAGE_TTL_MS (prices, stock and reviews show up that much later for them),
 * at most MAX_PAGES of them, per API (`instance`), each built once however many ask at once.
 */
import type { Bytes } from './compression';

export const PAGE_TTL_MS = 5_000;
const MAX_PAGES = 2_000;

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Bytes;
  /** Compressed forms, made the first time a browser asks for one. */
  encoded: Map<string, Bytes>;
}

interface Entry {
  until: number;
  page: Promise<CachedPage | null>;
}

const stores = new WeakMap<object, Map<string, Entry>>();

/** Whether a request may be answered from (and fill) the cache. */
export const cacheable = (request: Request): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') && !request.headers.has('cookie') && !request.headers.has('authorization');

export async function cachedPage(instance: object, key: string, render: () => Promise<Response>): Promise<CachedPage | Response> {
  let store = stores.get(instance);
  if (!store) stores.set(instance, (store = new Map()));
  const now = Date.now();
  const hit = store.get(key);
  if (hit && hit.until > now) {
    const page = await hit.page;
    if (page) return page;
  }
  let fresh: Response | null = null;
  const page = (async () => {
    const response = await render();
    fresh = response;
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || response.headers.has('set-cookie') || !/^(text\/html|application\/json)/.test(type)) return null;
    const body = new Uint8Array(await response.arrayBuffer());
    return { status: 200, headers: [...response.headers], body, encoded: new Map<string, Bytes>() };
  })();
  if (store.size >= MAX_PAGES) store.delete(store.keys().next().value!);
  const entry = { until: now + PAGE_TTL_MS, page };
  store.set(key, entry);
  const made = await page.catch((error: unknown) => {
    store.delete(key);
    throw error;
  });
  if (made) return made;
  if (store.get(key) === entry) store.delete(key);
  // Not cacheable: the one response rendered (its body unread).
  return fresh!;
}
