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

/** True when `url` lies under the media endpoint, inside the context's folder, with no path tricks. */
export function isAllowedImageUrl(config: Pick<Config, 'imagekit' | 'publicBaseUrl'>, context: MediaContext, url: string): boolean {
  let parsed: URL;
  let endpoint: URL;
  try {
    parsed = new URL(url);
    endpoint = new URL(mediaUrlEndpoint(config));
  } catch {
    return false;
  }
  if (parsed.origin !== endpoint.origin || parsed.username || parsed.password) return false;
  if (/%2e|%2f|%5c/i.test(parsed.pathname) || url.includes('..')) return false;
  const prefix = endpoint.pathname.replace(/\/$/, '') + MEDIA_FOLDERS[context];
  return parsed.pathname.startsWith(prefix) && parsed.pathname.length > prefix.length;
}
