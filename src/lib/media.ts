import type { Config } from '../config.js';

/** Where uploaded images live (contract section 5), shared by uploads, products and reviews. */
export type MediaContext = 'reviews' | 'products';

export const MEDIA_FOLDERS: Record<MediaContext, string> = {
  reviews: '/ecommerce/reviews/',
  products: '/ecommerce/products/',
};

/** ImageKit's URL endpoint when configured; otherwise the service hosts media itself. */
export const mediaUrlEndpoint = (config: Pick<Config, 'imagekit' | 'publicBaseUrl'>): string =>
  config.imagekit?.urlEndpoint ?? `${config.publicBaseUrl}/media`;

/**
 * The path of `url` under the media endpoint (`/ecommerce/reviews/x.png`)
 * when it lies inside the context's folder with no path tricks, else null.
 */
export function mediaPathOf(config: Pick<Config, 'imagekit' | 'publicBaseUrl'>, context: MediaContext, url: string): string | null {
  let parsed: URL;
  let endpoint: URL;
  try {
    parsed = new URL(url);
    endpoint = new URL(mediaUrlEndpoint(config));
  } catch {
    return null;
  }
  if (parsed.origin !== endpoint.origin || parsed.username || parsed.password) return null;
  if (/%2e|%2f|%5c/i.test(parsed.pathname) || url.includes('..')) return null;
  const base = endpoint.pathname.replace(/\/$/, '');
  const prefix = base + MEDIA_FOLDERS[context];
  if (!parsed.pathname.startsWith(prefix) || parsed.pathname.length === prefix.length) return null;
  return parsed.pathname.slice(base.length);
}
