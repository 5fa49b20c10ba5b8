import type { Handle, HandleServerError, RequestEvent } from '@sveltejs/kit';
import { compressed, encode, encodingFor } from '$lib/server/compression';
import { answerableFromCache, cacheable, cachedPage, freshPage, pageKey, type CachedPage } from '$lib/server/page-cache';
import { pageTag, unchangedPage } from '$lib/server/page-validator';
import { SHARED_CACHE_HEADERS } from '$lib/server/shared-cache';
import { createShop } from '$lib/server/shop';
import { dropTracking } from '$lib/tracking-params';

/** A page of one shopper's (or answered as one): kept by no cache, the browser's own included. */
const PRIVATE = 'private, no-store';

export const handle: Handle = async ({ event, resolve }) => {
  // Before anything reads the URL (SvelteKit's own routing has read only its path): pages never see them.
  dropTracking(event.url);
  const shop = (event.locals.shop = createShop(event));
  const render = async () => finish(event, await resolve(event, { preload: ({ type }) => type === 'js' || type === 'css' }));
  const { instance, pageCacheMs } = shop.transport;
  if (!cacheable(event.request)) {
    // A visitor whose only shop cookie is the pre-session one gets a page kept for everyone when there is one (never kept for them).
    const kept = pageCacheMs > 0 && answerableFromCache(event.request) ? await freshPage(instance, pageKey(event.request)) : null;
    return kept ? fromCache(event.request, kept, { private: true }) : compressed(event.request, await render());
  }
  // Behind a purged shared cache, that cache is the page cache (pageCacheMs 0): one here would hand it pages older than its purges.
  if (pageCacheMs === 0) {
    // A revalidation (the cache in front refreshing its copy): a 304 from the catalog's version when nothing changed, no render.
    const unchanged = await unchangedPage(shop, event.request, event.url.origin, pageKey(event.request));
    return unchanged ?? compressed(event.request, await render());
  }
  // Kept here, a page is rendered once in a while and every revalidation is answered from what is kept.
  const page = await cachedPage(instance, pageKey(event.request), render, pageCacheMs);
  return page instanceof Response ? compressed(event.request, page) : fromCache(event.request, page);
};

/** Headers every page gets, whoever rendered it. */
async function finish(event: RequestEvent, response: Response): Promise<Response> {
  await caching(event, response);
  // Browsers send `Origin: null` with a form post under `no-referrer` (the service's default for its
  // API), and SvelteKit's origin check then refuses every form sent without JavaScript. Pages send
  // the origin only, and only that, to other sites.
  response.headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  // Images and direct photo uploads go to the API's public origin, which need not be this page's
  // (http://localhost:3000 opened as 127.0.0.1, a storefront running apart): allow it by name.
  const csp = response.headers.get('content-security-policy');
  const media = event.locals.shop.transport.mediaOrigin;
  if (csp && media && media !== event.url.origin) {
    response.headers.set('content-security-policy', csp.replace(/(img-src|connect-src) ([^;]*)/g, `$1 $2 ${media}`));
  }
  // "We are a little busy": say when to try again, as the API's own 503s do.
  if (response.status === 503 && !response.headers.has('retry-after')) response.headers.set('retry-after', '5');
  // The service adds these to everything it serves; a storefront running alone sends them itself.
  if (!event.platform?.commerce) {
    response.headers.set('x-content-type-options', 'nosniff');
    response.headers.set('x-frame-options', 'DENY');
  }
  return response;
}

/**
 * Whether shared caches may keep the page (shared-cache.ts): only a page or its data, answered whole
 * (200, or 304 to a revalidation) to a request that carried none of the cookies a page depends on
 * (cookie-names.ts) and no credentials, that set no cookie and was built from public answers alone. It
 * varies by Cookie: a cache must not hand it to a shopper who has a session or a cart (the VCL in
 * deploy/varnish drops every other cookie from page requests), and its ETag names the catalog version it shows
 * (page-validator.ts). Everything else is private: it may be someone's.
 */
async function caching(event: RequestEvent, response: Response): Promise<void> {
  const type = response.headers.get('content-type') ?? '';
  const shared =
    cacheable(event.request) &&
    (response.status === 200 || response.status === 304) &&
    !response.headers.has('set-cookie') &&
    /^(text\/html|application\/json)/.test(type || 'text/html')
      ? event.locals.shop.sharedCache.headers()
      : null;
  if (shared) {
    for (const [name, value] of Object.entries(shared)) response.headers.set(name, value);
    response.headers.append('vary', 'Cookie');
    const catalog = event.locals.shop.sharedCache.version();
    const tag =
      catalog && response.headers.has('etag') ? await pageTag(event.locals.shop, event.url.origin, pageKey(event.request), catalog) : null;
    if (tag) response.headers.set('etag', tag);
  } else if (!response.headers.has('cache-control')) {
    response.headers.set('cache-control', PRIVATE);
  }
}

/**
 * A cached page as this browser takes it (compressed once per encoding and kept with the page);
 * `private`: for a visitor with a cookie of the shop's, whose pages no shared cache keeps (caching above).
 */
function fromCache(request: Request, page: CachedPage, { private: own = false } = {}): Response {
  const headers = new Headers(page.headers);
  headers.append('vary', 'accept-encoding');
  if (own) {
    for (const name of SHARED_CACHE_HEADERS) headers.delete(name);
    headers.set('cache-control', PRIVATE);
  }
  // A browser (or a cache) revalidating the page it kept: the same page, so no body.
  const etag = headers.get('etag');
  const condition = request.headers.get('if-none-match');
  if (etag && condition && condition.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''))) {
    headers.delete('content-length');
    headers.delete('content-type');
    return new Response(null, { status: 304, headers });
  }
  const encoding = page.body.length >= 1024 ? encodingFor(request) : null;
  if (!encoding) return new Response(page.body, { status: page.status, headers });
  let body = page.encoded.get(encoding);
  if (!body) page.encoded.set(encoding, (body = encode(page.body, encoding)));
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  return new Response(body, { status: page.status, headers });
}

/**
 * Unexpected errors: logged with the request's ID, and the shopper sees a sentence and that ID, never
 * the detail. SvelteKit's own refusals of a request (405 for a method a page does not take, 415 for a
 * form post that is no form) are the sender's, not ours: a sentence, nothing logged.
 */
export const handleError: HandleServerError = ({ error, event, status }) => {
  if (status === 404) return { message: 'We could not find that page.', code: 'NOT_FOUND' };
  if (status < 500) return { message: 'The shop could not take that request. Please go back and try again.' };
  const inProcess = event.platform?.commerce;
  if (inProcess) inProcess.report(error);
  else console.error(error);
  return {
    message: 'Something went wrong on our side. Please try again; if it keeps happening, quote the reference below.',
    ...(inProcess ? { requestId: inProcess.requestId } : {}),
  };
};
