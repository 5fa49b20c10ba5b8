import { pageEntries, productCount, productEntries, sitemapIndex, urlset } from '$lib/server/sitemap';
import { sitemapPlan } from '$lib/sitemap-plan';
import { loading } from '$lib/server/errors';
import type { RequestHandler } from './$types';

const XML = { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' };

/** Every active product and category; past 50,000 URLs, an index of a pages file and product files. */
export const GET: RequestHandler = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const origin = shop.transport.publicBaseUrl;
    const [pages, products] = await Promise.all([pageEntries(shop, origin), productCount(shop)]);
    const plan = sitemapPlan(products, pages.length);
    if (!plan.split) return new Response(urlset([...pages, ...(await productEntries(shop, origin, 0, products))]), { headers: XML });
    const files = [`${origin}/sitemap-0.xml`];
    for (let n = 1; n <= plan.productFiles; n++) files.push(`${origin}/sitemap-${n}.xml`);
    return new Response(sitemapIndex(files), { headers: XML });
  });
