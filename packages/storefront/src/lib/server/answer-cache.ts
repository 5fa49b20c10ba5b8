/**
 * Public API answers kept in this process and used again while the catalog has not moved
 * (docs/caching.md, "Storefront pages").
 *
 * A page for a shopper with a cookie (a session, a cart) is rendered for them alone, but most of what
 * it shows is public: the product, its reviews, a category's listing. Every such answer carries the
 * catalog version it was read at (its ETag, `"<release>.<version>"`, src/http-cache/policy.ts), and
 * every change a shopper can see moves that version. So a page that finds an answer kept here asks the
 * API once whether the catalog is still at that version (a conditional request for the first page of
 * categories: a 304 costs one version read) and then takes every kept answer of the version it learnt
 * without asking for it. A page is never built from anything older than that one question; an answer
 * of another version is asked for again.
 *
 * Only answers the API marked public are kept: a 200 to a plain GET, setting no cookie, varying by
 * nothing of the shopper's, with a catalog ETag. Live reads (the stock, the cart, the session) are
 * private and pass through. At most MAX_BYTES per API (`instance`), the least recently used going first.
 */
const MAX_BYTES = 16 * 1024 * 1024;
const MAX_ANSWER_BYTES = 512 * 1024;

/** The API's catalog ETag; the shop's settings (a hash, not a version) are kept elsewhere (cache.ts). */
const CATALOG_TAG = /^"[\w-]+\.\d+"$/;

type Bytes = Uint8Array<ArrayBuffer>;

/** The part of the API transport (transport.ts) this needs: where the API is, what every request carries, which API. */
interface Api {
  baseUrl: string;
  headers: Record<string, string>;
  instance: object;
  /** In-process, the catalog's ETag without a request (transport.ts); standalone, null. */
  catalog: { tag(): Promise<string> } | null;
}

interface Kept {
  etag: string;
  headers: [string, string][];
  body: Bytes;
}

interface Store {
  answers: Map<string, Kept>;
  bytes: number;
}

const stores = new WeakMap<object, Store>();

/** A fetch for one page request that answers public reads from what is kept when the catalog has not moved since. */
export function keptAnswers(transport: Api, inner: typeof fetch): typeof fetch {
  let store = stores.get(transport.instance);
  if (!store) stores.set(transport.instance, (store = { answers: new Map(), bytes: 0 }));
  const answers = store;
  // The catalog's ETag now, asked once per page (and only when something kept could answer).
  let current: Promise<string | null> | undefined;
  const api = `${transport.baseUrl}/api/`;

  return async (input, init) => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    if (request.method !== 'GET' || !request.url.startsWith(api) || request.headers.has('if-none-match') || request.headers.has('range')) {
      return inner(request);
    }
    const key = request.url.slice(api.length);
    const kept = answers.answers.get(key);
    if (kept) {
      current ??= catalogTag(transport, inner, kept.etag);
      if ((await current) === kept.etag) {
        // Most recently used last, so the oldest go first when room is needed.
        answers.answers.delete(key);
        answers.answers.set(key, kept);
        return new Response(kept.body, { status: 200, headers: kept.headers });
      }
      forget(answers, key);
    }
    const response = await inner(request);
    const etag = response.headers.get('etag');
    if (!etag || !keepable(response, etag)) return response;
    const body = new Uint8Array(await response.arrayBuffer());
    const headers = [...response.headers];
    if (body.byteLength <= MAX_ANSWER_BYTES) keep(answers, key, { etag, headers, body });
    return new Response(body, { status: 200, headers });
  };
}

/** Whether an answer is public data of one catalog version, the same for every shopper. */
function keepable(response: Response, etag: string): boolean {
  const vary = response.headers.get('vary') ?? '';
  return (
    response.status === 200 &&
    CATALOG_TAG.test(etag) &&
    /(^|,)\s*public\b/.test(response.headers.get('cache-control') ?? '') &&
    !response.headers.has('set-cookie') &&
    !/\*|\bcookie\b|\bauthorization\b/i.test(vary)
  );
}

/**
 * The catalog's ETag now: in-process the service says it; standalone the API answers the first page of
 * categories with 304 while the catalog is at `known` (one version read), or with the current ETag.
 * Null when it cannot tell: nothing kept is used.
 */
async function catalogTag(transport: Api, inner: typeof fetch, known: string): Promise<string | null> {
  if (transport.catalog) return transport.catalog.tag().catch(() => null);
  try {
    const response = await inner(
      new Request(`${transport.baseUrl}/api/v1/categories?limit=1`, { headers: { ...transport.headers, 'if-none-match': known } }),
    );
    await response.body?.cancel();
    if (response.status === 304) return known;
    const etag = response.headers.get('etag');
    return response.status === 200 && etag && CATALOG_TAG.test(etag) ? etag : null;
  } catch {
    return null;
  }
}

function keep(store: Store, key: string, answer: Kept): void {
  forget(store, key);
  store.answers.set(key, answer);
  store.bytes += answer.body.byteLength;
  for (const [oldest] of store.answers) {
    if (store.bytes <= MAX_BYTES) break;
    forget(store, oldest);
  }
}

function forget(store: Store, key: string): void {
  const kept = store.answers.get(key);
  if (!kept) return;
  store.answers.delete(key);
  store.bytes -= kept.body.byteLength;
}
