import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { MAX_URLS_PER_SITEMAP, PRODUCTS_PER_FILE, sitemapPlan } from '../../packages/storefront/src/lib/sitemap-plan.js';
import { freePort } from '../../src/lib/ports.js';
import { useApp } from '../helpers/use-app.js';
import { customer, makeShop } from '../helpers/storefront.js';

/**
 * What search engines and link previews read, checked against the API's own data: titles,
 * descriptions, canonical URLs and Open Graph per page; JSON-LD Product (offers with price,
 * currency and availability, aggregateRating) and BreadcrumbList; the sitemap and robots.txt.
 */
const port = await freePort();
const t = useApp({ env: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } });
const base = () => t.config.publicBaseUrl;

const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function head(html: string) {
  const meta = (attribute: 'name' | 'property', key: string) => {
    const tag = new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`).exec(html);
    return tag ? unescape(tag[1]!) : undefined;
  };
  return {
    title: unescape(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''),
    description: meta('name', 'description'),
    canonical: /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1],
    og: (key: string) => meta('property', `og:${key}`),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([^]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!)),
  };
}

async function page(path: string) {
  const response = await fetch(t.baseUrl + path);
  assert.equal(response.status, 200, path);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  return head(await response.text());
}

describe('storefront: search engines and sharing', () => {
  test('a product page: title, description, canonical and Open Graph, JSON-LD Product and BreadcrumbList as the API has them', async () => {
    const { admin, product, clothing, shirts } = await makeShop(t);
    // One variant sold out, one approved review: both must show in the structured data.
    const soldOut = product.variants[1]!;
    await admin.patch(`/api/v1/admin/inventory/${soldOut.id}`, { quantity_on_hand: 0 });
    const reviewer = await customer(t, { address: false });
    const review = await reviewer.client.post('/api/v1/reviews', {
      product_public_id: product.id,
      rating: 4,
      title: 'Cool',
      comment: 'Breezy.',
    });
    await admin.patch(`/api/v1/admin/reviews/${review.body.data.public_id}`, { status: 'APPROVED' });

    // And one running low: its page says how many are left (the count the API gives only when it is low).
    const few = product.variants[2]!;
    await admin.patch(`/api/v1/admin/inventory/${few.id}`, { quantity_on_hand: 3, reorder_level: 5 });
    const fewPage = await (await fetch(`${t.baseUrl}/p/${product.slug}?size=${few.options.size}&colour=${few.options.colour}`)).text();
    assert.match(fewPage, />Only 3 left</);
    const soldOutPage = await (await fetch(`${t.baseUrl}/p/${product.slug}?variant=${soldOut.id}`)).text();
    assert.match(soldOutPage, />Out of stock</);

    const api = (await t.anonymous.get(`/api/v1/products/${product.id}`)).body.data;
    const store = (await t.anonymous.get('/api/v1/store')).body.data;
    const seo = await page(`/p/${product.slug}`);

    assert.equal(seo.title, `${api.name} | ${store.name}`);
    assert.ok(seo.description && api.description.replace(/\s+/g, ' ').startsWith(seo.description.replace(/…$/, '')), seo.description);
    assert.equal(seo.canonical, `${base()}/p/${api.slug}`);
    assert.equal(seo.og('title'), api.name);
    assert.equal(seo.og('url'), seo.canonical);
    assert.equal(seo.og('type'), 'product');
    assert.equal(seo.og('image'), api.images[0].url);
    assert.equal(seo.og('site_name'), store.name);

    const ld = seo.jsonLd.find((entry) => entry['@type'] === 'Product');
    assert.ok(ld, 'JSON-LD Product');
    assert.equal(ld.name, api.name);
    assert.deepEqual(ld.image, [api.images[0].url]);
    assert.deepEqual(ld.brand, { '@type': 'Brand', name: api.brand });
    assert.deepEqual(
      ld.offers.map((o: any) => [o.sku, o.price, o.priceCurrency, o.availability]),
      api.variants.map((v: any) => [
        v.sku,
        v.price,
        store.currency,
        v.in_stock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      ]),
    );
    assert.ok(ld.offers.some((o: any) => o.sku === soldOut.sku && o.availability === 'https://schema.org/OutOfStock'));
    assert.deepEqual(ld.aggregateRating, {
      '@type': 'AggregateRating',
      ratingValue: api.rating.average,
      reviewCount: api.rating.count,
      bestRating: 5,
      worstRating: 1,
    });
    assert.equal(api.rating.count, 1);

    const crumbs = seo.jsonLd.find((entry) => entry['@type'] === 'BreadcrumbList');
    assert.deepEqual(
      crumbs.itemListElement.map((item: any) => [item.position, item.name, item.item]),
      [
        [1, 'Home', `${base()}/`],
        [2, clothing.name, `${base()}/c/${clothing.slug}`],
        [3, shirts.name, `${base()}/c/${shirts.slug}`],
        [4, api.name, `${base()}/p/${api.slug}`],
      ],
    );
  });

  test('category and home pages have their own title, description and canonical URL; a filtered view points at the plain one', async () => {
    const { shirts } = await makeShop(t);
    const store = (await t.anonymous.get('/api/v1/store')).body.data;
    const category = await page(`/c/${shirts.slug}?sort=price&min=10`);
    assert.equal(category.title, `${shirts.name} | ${store.name}`);
    assert.equal(category.canonical, `${base()}/c/${shirts.slug}`);
    assert.ok(category.description && category.description.length > 20);
    assert.ok(category.jsonLd.some((entry) => entry['@type'] === 'BreadcrumbList'));
    const home = await page('/');
    assert.equal(home.title, store.name);
    assert.equal(home.canonical, `${base()}/`);
    assert.ok(home.jsonLd.some((entry) => entry['@type'] === 'WebSite'));
  });

  test('a later page of a listing says its number; one past the end is kept out of search engines; a missing page names the shop', async () => {
    const { shirts } = await makeShop(t);
    const store = (await t.anonymous.get('/api/v1/store')).body.data;
    const robots = (html: string) => /<meta name="robots" content="noindex"/.test(html);
    const first = await (await fetch(`${t.baseUrl}/c/${shirts.slug}`)).text();
    assert.equal(robots(first), false);
    // One product, so page 2 is past the end.
    const past = await (await fetch(`${t.baseUrl}/c/${shirts.slug}?page=2`)).text();
    assert.equal(head(past).title, `${shirts.name}, page 2 | ${store.name}`);
    assert.equal(robots(past), true, 'a page past the end is noindex');
    const search = await (await fetch(`${t.baseUrl}/search?page=9`)).text();
    assert.equal(head(search).title, `All products, page 9 | ${store.name}`);
    assert.equal(robots(search), true);
    const missing = await fetch(`${t.baseUrl}/p/no-such-product-${Date.now()}`);
    assert.equal(missing.status, 404);
    const notFound = await missing.text();
    assert.equal(head(notFound).title, `We could not find that page | ${store.name}`);
    assert.equal(robots(notFound), true);
  });

  test('sitemap.xml lists every active product and category, not drafts; robots.txt names it', async () => {
    const { admin, product, shirts } = await makeShop(t);
    const draft = await admin.post('/api/v1/admin/products', { name: 'Secret Draft Shirt', status: 'DRAFT' });
    const response = await fetch(`${t.baseUrl}/sitemap.xml`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
    const xml = await response.text();
    const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    assert.ok(urls.includes(`${base()}/p/${product.slug}`));
    assert.ok(urls.includes(`${base()}/c/${shirts.slug}`));
    assert.ok(!urls.some((url) => url.endsWith(`/p/${draft.body.data.slug}`)));
    const active = (await t.anonymous.get('/api/v1/products?limit=1')).body.meta.total;
    assert.equal(urls.filter((url) => url.includes('/p/')).length, active, 'every active product once');

    // The split files serve the same URLs (they are what an index points at past 50,000).
    const pages = await (await fetch(`${t.baseUrl}/sitemap-0.xml`)).text();
    const products = await (await fetch(`${t.baseUrl}/sitemap-1.xml`)).text();
    assert.match(pages, new RegExp(`/c/${shirts.slug}<`));
    assert.match(products, new RegExp(`/p/${product.slug}<`));
    assert.equal((await fetch(`${t.baseUrl}/sitemap-2.xml`)).status, 404);

    const robots = await (await fetch(`${t.baseUrl}/robots.txt`)).text();
    assert.match(robots, new RegExp(`^Sitemap: ${base()}/sitemap.xml$`, 'm'));
    assert.match(robots, /^Disallow: \/checkout$/m);
  });

  test('past 50,000 URLs the sitemap is an index of files of at most 50,000', () => {
    assert.deepEqual(sitemapPlan(MAX_URLS_PER_SITEMAP - 10, 10), { split: false });
    assert.deepEqual(sitemapPlan(MAX_URLS_PER_SITEMAP - 10, 11), {
      split: true,
      productFiles: Math.ceil((MAX_URLS_PER_SITEMAP - 10) / PRODUCTS_PER_FILE),
    });
    assert.deepEqual(sitemapPlan(1_000_000, 50), { split: true, productFiles: 100 });
    assert.ok(PRODUCTS_PER_FILE <= MAX_URLS_PER_SITEMAP);
  });

  test('a catalog past 50,000 URLs is served as an index whose files hold every product once, none over the limit', async () => {
    // As many products as it takes, written straight to the table (the API would take minutes), then taken away again.
    await sql`INSERT INTO products (public_id, name, slug, status, images)
              SELECT 'prd_bulk' || lpad(n::text, 16, '0'), 'Bulk ' || n, 'bulk-' || n, 'ACTIVE', '[]'::jsonb
              FROM generate_series(1, ${MAX_URLS_PER_SITEMAP + 1}::int) AS n`.execute(t.db);
    try {
      const active = (await t.anonymous.get('/api/v1/products?limit=1')).body.meta.total as number;
      const files = Math.ceil(active / PRODUCTS_PER_FILE);
      const index = await fetch(`${t.baseUrl}/sitemap.xml`);
      assert.equal(index.status, 200);
      const xml = await index.text();
      assert.match(xml, /<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
      const locations = [...xml.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map((m) => m[1]!);
      assert.deepEqual(
        locations,
        Array.from({ length: files + 1 }, (_, n) => `${base()}/sitemap-${n}.xml`),
      );
      const products = new Set<string>();
      for (let n = 1; n <= files; n++) {
        const file = await (await fetch(`${t.baseUrl}/sitemap-${n}.xml`)).text();
        const urls = [...file.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
        assert.ok(urls.length > 0 && urls.length <= MAX_URLS_PER_SITEMAP, `sitemap-${n}.xml holds ${urls.length}`);
        for (const url of urls) products.add(url);
      }
      assert.equal(products.size, active, 'every active product once across the files');
      assert.ok(products.has(`${base()}/p/bulk-${MAX_URLS_PER_SITEMAP + 1}`));
      assert.equal((await fetch(`${t.baseUrl}/sitemap-${files + 1}.xml`)).status, 404);
    } finally {
      await sql`DELETE FROM products WHERE public_id LIKE 'prd_bulk%'`.execute(t.db);
    }
  });
});
