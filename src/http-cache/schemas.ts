import type { TSchema } from 'typebox';
import { NoContent } from '../lib/schemas.js';

/** The caching headers of a public read, as the OpenAPI document lists them (docs/caching.md). */
const text = (description: string) => ({ type: 'string', description }) as const;
const CACHE_HEADERS = {
  ETag: text("The catalog's version: send it back in If-None-Match to get a 304 when nothing changed"),
  'Cache-Control': text('public, with max-age, s-maxage and stale-if-error as configured (CACHE_*)'),
  'Surrogate-Control': text(
    'For Varnish and Fastly: max-age (the s-maxage), stale-while-revalidate and stale-if-error (kept out of Cache-Control, which browsers read too)',
  ),
  'CDN-Cache-Control': text('The same for CDNs that read RFC 9213 (Cloudflare, Akamai)'),
  'Surrogate-Key': text(
    'What the response shows, space-separated (`prd_...`, `cat_...`, `products`, `categories`, `reviews:prd_...`): purges aim at these',
  ),
  'Cache-Tag': text('The same keys, comma-separated (Cloudflare)'),
} as const;

/** A cacheable 200 answer: its body schema, documented with the caching headers. */
export const Cached = <T extends TSchema>(schema: T): T => ({ ...schema, headers: CACHE_HEADERS }) as T;

/** The 304 a public read answers when If-None-Match holds its current ETag. */
export const NotModified = {
  ...NoContent,
  description: "Not modified: the request's If-None-Match holds the current ETag (no body)",
  headers: { ETag: CACHE_HEADERS.ETag, 'Cache-Control': CACHE_HEADERS['Cache-Control'] },
};
