/**
 * Campaign tags and ad-click IDs that links from ads, newsletters and social posts add to a shop's
 * URLs. No page depends on them: the analytics that want them read them from the browser's address
 * bar, where they stay. Left in, they would make every ad click its own page (a click ID is unique
 * per click): a miss in every cache, a render each, and the pages in use pushed out of the
 * micro-cache (server/page-cache.ts); and a page would hand them on in its links (the sign-in link's
 * return address, the next page of a list) to whoever opens it next. So they are taken out of a
 * page request's URL before anything reads it (hooks.server.ts), out of the cache key of
 * deploy/varnish/commerce.vcl, which names the same parameters (a test holds the two lists
 * together), and out of the links a page in the browser builds from its own address.
 */

/** Every `utm_*` (Google Analytics' campaign tags, which most tools read), and these by name. */
export const TRACKING_PREFIX = 'utm_';
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  // Google Ads, Display & Video, Merchant Center listings; Google Analytics' cross-domain linker
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'srsltid',
  '_gl',
  // Meta, Microsoft Advertising, TikTok, X, LinkedIn, Yandex, Instagram shares
  'fbclid',
  'msclkid',
  'ttclid',
  'twclid',
  'li_fat_id',
  'yclid',
  'igshid',
  // Mailchimp, HubSpot, Marketo, Klaviyo email links
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  '_kx',
]);

export const isTracking = (name: string): boolean => name.startsWith(TRACKING_PREFIX) || TRACKING_PARAMS.has(name);

/** The name of a query's `name=value` piece as URLSearchParams reads it: `+` a space, percent-decoded (as written when that fails). */
function nameOf(piece: string): string {
  const raw = piece.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Takes the tracking parameters out of `url` (in place): every other piece of its query stays as it was written. */
export function dropTracking(url: URL): URL {
  const pieces = url.search.slice(1).split('&');
  const kept = pieces.filter((piece) => !isTracking(nameOf(piece)));
  if (kept.length < pieces.length) url.search = kept.join('&');
  return url;
}

/** A copy of `url` without them: for the links a page builds from its own address. */
export const withoutTracking = (url: URL): URL => dropTracking(new URL(url));
