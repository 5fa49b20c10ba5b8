import { createHash } from 'node:crypto';
import { version as build } from '$app/environment';
import { storeSettings } from './catalog';
import { cachePolicyOf, type CatalogVersion } from './shared-cache';
import type { Shop } from './shop';

/**
 * Validators for pages a shared cache may keep (docs/caching.md, "Storefront pages").
 *
 * Such a page shows public data only, and everything public moves the catalog's version when it
 * changes (the API's ETag, src/http-cache/policy.ts; stock turning scarce moves it too, migration 0019).
 * So a page built from answers that were all read at one catalog version (shared-cache.ts) is that
 * version's, whoever renders it: its ETag is made of what else it depends on (this build, the shop's
 * origin and settings, and the page's own URL: the seed) and that version,
 * `"sf.<seed>.<release>.<version>"`. The URL in the seed ties a tag to the page that issued it: a
 * tag from another page (a shareable one) never answers for this one (a private one, a redirect). A revalidation asks the API whether the catalog is still at that
 * version (a 304 there costs one version read) and answers 304 without reading a product or rendering
 * anything: the way every API read answers If-None-Match, now for pages too.
 */
const PAGE_TAG = /^"sf\.([\w-]+)\.([\w-]+)\.(\d+)"$/;

const settingsJson = new WeakMap<object, string>();

/** What a page depends on besides the catalog: this build, the shop's origin and settings, the page's URL (`key`). */
async function pageSeed(shop: Shop, origin: string, key: string): Promise<string> {
  const settings = await storeSettings(shop);
  let json = settingsJson.get(settings);
  if (json === undefined) settingsJson.set(settings, (json = JSON.stringify(settings)));
  return createHash('sha256').update(`${build}\n${origin}\n${json}\n${key}`).digest('base64url').slice(0, 12);
}

/** The ETag of the page at `key` built from public answers all read at `catalog`; null when the seed cannot be known (the API unreachable). */
export async function pageTag(shop: Shop, origin: string, key: string, catalog: CatalogVersion): Promise<string | null> {
  try {
    return `"sf.${await pageSeed(shop, origin, key)}.${catalog.release}.${catalog.version}"`;
  } catch {
    return null;
  }
}

/**
 * The 304 for a revalidation whose page has not changed since its ETag was made, or null when it may
 * have (or the ETag is not one of ours): the page is then rendered as usual.
 */
export async function unchangedPage(shop: Shop, request: Request, origin: string, key: string): Promise<Response | null> {
  const condition = request.headers.get('if-none-match');
  if (!condition?.includes('"sf.')) return null;
  let seed: string;
  try {
    seed = await pageSeed(shop, origin, key);
  } catch {
    return null;
  }
  const tag = condition
    .split(',')
    .map((one) => PAGE_TAG.exec(one.trim().replace(/^W\//, '')))
    .find((match) => match?.[1] === seed);
  if (!tag) return null;
  const [etag, , release, version] = tag as unknown as [string, string, string, string];
  const policy = await unchangedCatalog(shop, `"${release}.${version}"`);
  if (!policy) return null;
  const headers = new Headers({ etag, vary: 'Cookie, accept-encoding' });
  for (const [name, value] of Object.entries(policy)) headers.set(name, value);
  return new Response(null, { status: 304, headers });
}

/**
 * The API's public lifetimes when the catalog is still at `apiTag`, else null. In-process the
 * service tells its version directly; standalone, the first page of categories answers 304 from the
 * catalog's version alone when it is still this one.
 */
async function unchangedCatalog(shop: Shop, apiTag: string): Promise<Record<string, string> | null> {
  const { catalog } = shop.transport;
  if (catalog) return (await catalog.tag().catch(() => null)) === apiTag ? catalog.policy : null;
  const response = await shop.api.raw
    .GET('/api/v1/categories', { params: { query: { limit: 1 } }, headers: { 'if-none-match': apiTag } })
    .then((answer) => answer.response)
    .catch(() => null);
  if (response?.status !== 304) return null;
  return cachePolicyOf(response);
}
