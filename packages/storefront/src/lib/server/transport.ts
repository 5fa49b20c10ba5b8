import { env } from '$env/dynamic/private';
import type { RequestEvent } from '@sveltejs/kit';
import { PAGE_TTL_MS } from './page-cache';

/**
 * How the service hands its API to a storefront it serves in the same process (src/storefront/routes.ts).
 * Kept to plain values and a fetch, so the storefront needs nothing of the service's code.
 */
export interface InProcessApi {
  /** A fetch that enters the API without a socket (the origin of the URL names the service; only its path is used). */
  fetch: typeof fetch;
  /** The origin that names the service's API to that fetch (the service's own constant, so the two never drift). */
  apiOrigin: string;
  /** The shopper's address as the service resolved it with its trust-proxy rules (the API counts rate limits by it). */
  clientAddress: string;
  /** The ID the service gave this page request, sent on as x-request-id so the API's log lines join up with it. */
  requestId: string;
  /** One object per mounted service: the storefront keys its cache of public data by it, so two services never share one. */
  instance: object;
  /** The service's PUBLIC_BASE_URL: canonical URLs, Open Graph and the sitemap use it, never the request's Host header. */
  publicBaseUrl: string;
  /** Writes an unexpected error to the service's log, under this request's ID. */
  report(error: unknown): void;
  /** The service purges a shared cache in front (CACHE_PURGE_URLS): pages must then be built from data as fresh as the API's. */
  sharedCache: boolean;
  /** How long a page for visitors without cookies is kept here (STOREFRONT_PAGE_CACHE_MS; 0 when a purged cache is in front). */
  pageCacheMs: number;
  /** The catalog's ETag now, as the API's public reads carry it: asked without a request to the API. */
  catalogTag(): Promise<string>;
  /** The Cache-Control, Surrogate-Control and CDN-Cache-Control the API gives its public reads. */
  cachePolicy: Record<string, string>;
}

export interface ApiTransport {
  /** The API's origin (the client's paths carry /api/v1). */
  baseUrl: string;
  fetch: typeof fetch;
  /** Sent with every API request: who the shopper is to the API's logs and rate limits. */
  headers: Record<string, string>;
  /** Public data cached for one API never serves another (see cache.ts). */
  instance: object;
  /** The shop's public origin, for canonical URLs, Open Graph and the sitemap. */
  publicBaseUrl: string;
  /** Where the API's images and built-in upload endpoint are, as browsers reach them (for the page's CSP). */
  mediaOrigin: string | null;
  /**
   * A shared cache in front is purged when the catalog changes: no page is then built from data kept in this
   * process (the category tree is revalidated on every page), or the cache would store a page older than
   * the purge that made it fetch one. In-process from the service's CACHE_PURGE_URLS; standalone from
   * SHOP_SHARED_CACHE=on.
   */
  sharedCache: boolean;
  /** How long a page for visitors without cookies is kept in this process (page-cache.ts); 0: not at all. */
  pageCacheMs: number;
  /**
   * In-process: the catalog's ETag now and the API's public lifetimes, without asking the API over
   * HTTP (page-validator.ts, answer-cache.ts). Standalone: null, and they are learnt from its answers.
   */
  catalog: { tag(): Promise<string>; policy: Record<string, string> } | null;
}

/** The shopper's address for the API; none when adapter-node cannot tell (its SHOP_ADDRESS_HEADER missing from a request). */
function forwardedFor(event: RequestEvent): Record<string, string> {
  try {
    return { 'x-forwarded-for': event.getClientAddress() };
  } catch {
    return {};
  }
}

const standalone = {};

/**
 * The API this request's calls go to: the service's own, in-process, when the service serves the
 * storefront; otherwise COMMERCE_API_URL (default http://localhost:3000) over HTTP, with the shopper's
 * address in X-Forwarded-For (the API believes it when TRUST_PROXY trusts the storefront's address).
 */
export function apiTransport(event: RequestEvent): ApiTransport {
  const userAgent = event.request.headers.get('user-agent');
  const common: Record<string, string> = userAgent ? { 'user-agent': userAgent.slice(0, 512) } : {};
  const inProcess = event.platform?.commerce;
  if (inProcess) {
    return {
      baseUrl: inProcess.apiOrigin,
      fetch: inProcess.fetch,
      headers: { ...common, 'x-request-id': inProcess.requestId },
      instance: inProcess.instance,
      publicBaseUrl: inProcess.publicBaseUrl,
      mediaOrigin: new URL(inProcess.publicBaseUrl).origin,
      sharedCache: inProcess.sharedCache,
      pageCacheMs: inProcess.pageCacheMs,
      catalog: { tag: inProcess.catalogTag, policy: inProcess.cachePolicy },
    };
  }
  const baseUrl = (env.COMMERCE_API_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  const sharedCache = env.SHOP_SHARED_CACHE === 'on';
  return {
    baseUrl,
    fetch: globalThis.fetch,
    headers: { ...common, ...forwardedFor(event) },
    instance: standalone,
    // SHOP_ORIGIN (adapter-node's ORIGIN) fixes the request's origin; without it the Host header decides.
    publicBaseUrl: event.url.origin,
    // The API's PUBLIC_BASE_URL, when browsers reach it by another name than COMMERCE_API_URL.
    mediaOrigin: new URL(env.COMMERCE_PUBLIC_URL ?? baseUrl).origin,
    sharedCache,
    pageCacheMs: sharedCache ? 0 : PAGE_TTL_MS,
    catalog: null,
  };
}
