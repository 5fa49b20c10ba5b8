/**
 * Whether a page may be kept by a shared cache in front (Varnish, a CDN), and under which surrogate
 * keys (docs/caching.md, "Storefront pages").
 *
 * A page is made of API answers. Every answer this request's API calls get is recorded here: a public
 * one (the API marked it `Cache-Control: public` and named what it shows in `Surrogate-Key`) adds its
 * keys; any other (the stock read live, anything of a session) makes the page one that no shared cache
 * may keep, unless the page accepts it (`acceptLive`: it shows nothing of it beyond what the public
 * answers say). A page kept is purged by the same keys as the answers it was built from, so it is as
 * fresh as they are; its lifetimes are the API's own (copied from its public answers), so one
 * configuration (CACHE_*) rules both.
 *
 * Only a request with no cookie and no credentials is ever answered with such a page (hooks.server.ts):
 * it cannot be anyone's session, cart or pre-session token.
 *
 * The record also keeps the catalog version each public answer was read at (the API's ETag is
 * `"<release>.<version>"`). When all of them agree, the page is a snapshot of that version and its
 * ETag can say so (page-validator.ts): a revalidation is then answered from the catalog's version
 * alone. When they do not (a write landed mid-render, or the category tree kept here is older than
 * the products), the page is not one version's, and keeps SvelteKit's hash of its body.
 */
export interface SharedCacheRecord {
  /** Wraps the API transport's fetch so that every answer is recorded. */
  recording(inner: typeof fetch): typeof fetch;
  /** Keys of public data the page read without asking the API this time (kept in this process: the category tree). */
  addKeys(...keys: string[]): void;
  /** The page shows of this live read only what its public answers say (a path prefix of the API, e.g. `/stock`). */
  acceptLive(pathSuffix: string): void;
  /** The headers that let a shared cache keep the page; null when it may not. */
  headers(): Record<string, string> | null;
  /** The ETag of public data the page used without asking the API this time (the category tree kept here). */
  addValidator(etag: string | null): void;
  /** The API's lifetimes for public reads, when the page learnt its data is current without asking the API (in-process). */
  addPolicy(policy: Record<string, string>): void;
  /** The API release and the catalog version everything the page read was at; null unless there is exactly one. */
  version(): CatalogVersion | null;
}

export interface CatalogVersion {
  release: string;
  version: number;
}

/**
 * The API's catalog ETag (src/http-cache/policy.ts): `"<release>.<version>"`. The shop's settings have
 * `"<release>.<hash of the settings>"` instead; a page names its settings itself (the seed in
 * page-validator.ts), so that one adds nothing here.
 */
const API_TAG = /^"([\w-]+)\.([\w-]+)"$/;

/** Headers of the API's public answers that a page built from them takes as its own, on its 200 and its 304. */
const POLICY = ['cache-control', 'surrogate-control', 'cdn-cache-control'] as const;

/** Every header `headers()` gives a page a shared cache may keep. */
export const SHARED_CACHE_HEADERS: readonly string[] = [...POLICY, 'surrogate-key', 'cache-tag'];

/** The lifetimes a page takes from a public answer's headers (or the API's policy handed over in-process). */
const policyOf = (get: (name: string) => string | null): Record<string, string> =>
  Object.fromEntries(POLICY.flatMap((name) => (get(name) !== null ? [[name, get(name)!]] : [])));

/** The lifetimes a public answer of the API gives (POLICY), as a page repeats them. */
export const cachePolicyOf = (response: Response): Record<string, string> => policyOf((name) => response.headers.get(name));

const isPublic = (response: Response) => /(^|,)\s*public\b/.test(response.headers.get('cache-control') ?? '');

export function sharedCacheRecord(): SharedCacheRecord {
  const keys = new Set<string>();
  const live = new Set<string>();
  let policy: Record<string, string> | null = null;
  let seen: CatalogVersion | null = null;
  let consistent = true;
  const validator = (etag: string | null) => {
    const tag = etag === null ? null : API_TAG.exec(etag);
    if (!tag) return void (consistent = false);
    const [, release, version] = tag as unknown as [string, string, string];
    if (!/^\d+$/.test(version)) return;
    if (!seen) seen = { release, version: Number(version) };
    else if (seen.release !== release || seen.version !== Number(version)) consistent = false;
  };
  return {
    recording(inner) {
      return async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        let response: Response;
        try {
          response = await inner(input, init);
        } catch (error) {
          // No answer (the API unreachable): the page may render without it (the frame does), but is not kept.
          live.add(new URL(url).pathname);
          throw error;
        }
        const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
        if (method !== 'GET' && method !== 'HEAD') live.add(new URL(url).pathname);
        else if (isPublic(response) && (response.status === 200 || response.status === 304)) {
          for (const key of (response.headers.get('surrogate-key') ?? '').split(' ')) if (key) keys.add(key);
          validator(response.headers.get('etag'));
          policy ??= cachePolicyOf(response);
        } else live.add(new URL(url).pathname);
        return response;
      };
    },
    addKeys(...more) {
      for (const key of more) keys.add(key);
    },
    acceptLive(pathSuffix) {
      for (const path of live) if (path.endsWith(pathSuffix)) live.delete(path);
    },
    headers() {
      if (live.size > 0 || keys.size === 0 || !policy?.['cache-control']) return null;
      const list = [...keys].sort();
      return { ...policy, 'surrogate-key': list.join(' '), 'cache-tag': list.join(',') };
    },
    addValidator: validator,
    addPolicy(given) {
      policy ??= policyOf((name) => given[name] ?? null);
    },
    version() {
      return consistent ? seen : null;
    },
  };
}
