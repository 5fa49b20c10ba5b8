import { error } from '@sveltejs/kit';
import { loading } from '$lib/server/errors';
import { pageEntries, productEntries, urlset } from '$lib/server/sitemap';
import { PRODUCTS_PER_FILE } from '$lib/sitemap-plan';
import type { RequestHandler } from './$types';

const XML = { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' };

/** One file of a split sitemap: 0 is the home page and the categories, n >= 1 the n-th slice of products. */
export const GET: RequestHandler = (event) =>
  loading(event, async () => {
    const n = Number(event.params.n);
    if (!/^\d{1,6}$/.test(event.params.n)) error(404, { message: 'No such sitemap.' });
    const { shop } = event.locals;
    const origin = shop.transport.publicBaseUrl;
    const entries =
      n === 0 ? await pageEntries(shop, origin) : await productEntries(shop, origin, (n - 1) * PRODUCTS_PER_FILE, PRODUCTS_PER_FILE);
    if (entries.length === 0) error(404, { message: 'No such sitemap.' });
    return new Response(urlset(entries), { headers: XML });
  });
