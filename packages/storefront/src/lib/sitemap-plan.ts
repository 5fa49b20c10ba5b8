/** The sitemap protocol's limit per file; past it, /sitemap.xml becomes an index of files. */
export const MAX_URLS_PER_SITEMAP = 50_000;
/** Products per file once the sitemap is split (each file is this many API pages of 100). */
export const PRODUCTS_PER_FILE = 10_000;

/** How /sitemap.xml is laid out for a catalog: one file, or an index of the pages file and the product files. */
export function sitemapPlan(products: number, otherUrls: number): { split: false } | { split: true; productFiles: number } {
  if (products + otherUrls <= MAX_URLS_PER_SITEMAP) return { split: false };
  return { split: true, productFiles: Math.max(1, Math.ceil(products / PRODUCTS_PER_FILE)) };
}
