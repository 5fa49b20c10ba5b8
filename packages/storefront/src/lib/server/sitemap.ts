import type { Shop } from './shop';
import { categoryTree } from './catalog';

const API_PAGE = 100;

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

export function urlset(entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    (e) => `<url><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod.slice(0, 10)}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function sitemapIndex(locations: readonly string[]): string {
  const items = locations.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}

/** The home page, the all-products page and every category. */
export async function pageEntries(shop: Shop, origin: string): Promise<SitemapEntry[]> {
  const tree = await categoryTree(shop, { fresh: true });
  return [
    { loc: `${origin}/` },
    { loc: `${origin}/search` },
    ...[...tree.byId.values()].map((c) => ({ loc: `${origin}/c/${c.slug}`, lastmod: c.updated_at })),
  ];
}

/** Active products from `first` (0-based), oldest first so a growing catalog appends to the last file. */
export async function productEntries(shop: Shop, origin: string, first: number, count: number): Promise<SitemapEntry[]> {
  const entries: SitemapEntry[] = [];
  const firstPage = Math.floor(first / API_PAGE) + 1;
  const lastPage = Math.floor((first + count - 1) / API_PAGE) + 1;
  for (let page = firstPage; page <= lastPage; page++) {
    const { data, meta } = await shop.api.products.list({ page, limit: API_PAGE, sort: 'created_at' });
    for (const product of data) entries.push({ loc: `${origin}/p/${product.slug}`, lastmod: product.updated_at });
    if (!meta.hasNext) break;
  }
  return entries;
}

export const productCount = async (shop: Shop) => (await shop.api.products.list({ limit: 1 })).meta.total;
