import type { RequestHandler } from './$types';

/** Crawl the shop, not the account, checkout, order or API pages; the sitemap lists what there is. */
export const GET: RequestHandler = ({ locals }) => {
  const origin = locals.shop.transport.publicBaseUrl;
  const body = [
    'User-agent: *',
    'Disallow: /account',
    'Disallow: /checkout',
    'Disallow: /orders',
    'Disallow: /logout',
    'Disallow: /api/',
    'Disallow: /admin',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' } });
};
