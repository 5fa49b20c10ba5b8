/**
 * The catalog behind a cache (issue 28, docs/caching.md): Varnish with the
 * committed deploy/varnish/commerce.vcl in front of the service, and
 *
 * - the scenarios: catalog reads on Varnish's hit path, and the same reads
 *   direct to the service as conditional requests (If-None-Match with the
 *   current ETag: the 304 path), each a ratio to the same-run baseline;
 * - a browse mix after them: shoppers reading product pages and list pages
 *   with a skewed popularity over the whole store, through Varnish, while an
 *   admin changes prices in a steady stream: the hit ratio, and how long each
 *   change takes to show through the cache (the purge lag as a shopper sees it).
 */
import type { Db } from '../src/db/database.js';
import { sql } from 'kysely';
import { startVarnish, type Varnish } from '../test/helpers/varnish.js';

export const PURGE_TOKEN = 'bench-purge-token-0123456789';

export interface CacheBench {
  varnish: Varnish;
}

export async function startCacheBench(backend: string, port: number): Promise<CacheBench> {
  return { varnish: await startVarnish([backend], PURGE_TOKEN, port) };
}

export interface BrowseMixStats {
  requests: number;
  hits: number;
  hitRatio: number;
  seconds: number;
  writes: number;
  /** Milliseconds from each write's answer to the new price showing through Varnish. */
  purgeLagMs: { p50: number; p95: number; max: number };
}

/** Zipf-like popularity: rank r is chosen with probability proportional to 1 / r^s. */
function zipf(n: number, s: number): () => number {
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const weight of weights) cumulative.push((sum += weight / total));
  return () => {
    const x = Math.random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/**
 * `seconds` of browsing by `shoppers` concurrent loops: 70% product pages
 * (Zipf 1.0 over every public product), 30% list pages (a category's first
 * pages, Zipf over the categories, half of them with a price range); an
 * admin changes the price of a product a shopper is likely to see (Zipf too)
 * every `writeEveryMs`, and a watcher times when each shows through Varnish.
 */
export async function browseMix(options: {
  db: Db;
  varnishUrl: string;
  serviceUrl: string;
  admin: { cookie: string; csrf: string };
  seconds: number;
  shoppers: number;
  writeEveryMs: number;
}): Promise<BrowseMixStats> {
  const products = (
    await sql<{ product: string; variant: string }>`
      SELECT p.public_id AS product, (SELECT v.public_id FROM variants v WHERE v.product_id = p.id AND v.status = 'ACTIVE' AND v.deleted_at IS NULL ORDER BY v.position, v.id LIMIT 1) AS variant
      FROM products p WHERE p.status = 'ACTIVE' AND p.deleted_at IS NULL ORDER BY random()`.execute(options.db)
  ).rows.filter((row) => row.variant !== null);
  const categories = (
    await sql<{ id: string }>`SELECT public_id AS id FROM categories WHERE deleted_at IS NULL ORDER BY random()`.execute(options.db)
  ).rows;
  const product = zipf(products.length, 1);
  const category = zipf(categories.length, 1);
  const path = () => {
    if (Math.random() < 0.7) return `/api/v1/products/${products[product()]!.product}`;
    const id = categories[category()]!.id;
    const page = 1 + Math.floor(Math.random() * 3);
    return Math.random() < 0.5
      ? `/api/v1/categories/${id}/products?page=${page}`
      : `/api/v1/products?category=${id}&min_price=50&max_price=300&page=${page}`;
  };

  let requests = 0;
  let hits = 0;
  const started = performance.now();
  const until = started + options.seconds * 1000;
  const shopper = async () => {
    while (performance.now() < until) {
      const response = await fetch(options.varnishUrl + path());
      await response.arrayBuffer();
      requests++;
      if (response.headers.get('x-cache') === 'HIT') hits++;
    }
  };

  const lags: number[] = [];
  const writer = async () => {
    let cents = 1000;
    while (performance.now() < until - 2000) {
      const { product: productId, variant } = products[product()]!;
      const price = `${Math.floor(++cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      const response = await fetch(`${options.serviceUrl}/api/v1/admin/variants/${variant}`, {
        method: 'PATCH',
        headers: { cookie: options.admin.cookie, 'x-csrf-token': options.admin.csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ price }),
      });
      if (response.status !== 200) throw new Error(`price change: ${response.status} ${await response.text()}`);
      const written = performance.now();
      for (;;) {
        const seen = await fetch(`${options.varnishUrl}/api/v1/products/${productId}`);
        const body = (await seen.json()) as { data: { variants: { public_id: string; price: string }[] } };
        if (body.data.variants.find((v) => v.public_id === variant)?.price === price) break;
        if (performance.now() - written > 30_000) throw new Error(`price ${price} of ${productId} not visible through Varnish after 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      lags.push(performance.now() - written);
      await new Promise((resolve) => setTimeout(resolve, options.writeEveryMs));
    }
  };

  await Promise.all([...Array.from({ length: options.shoppers }, shopper), writer()]);
  return {
    requests,
    hits,
    hitRatio: requests === 0 ? 0 : hits / requests,
    seconds: (performance.now() - started) / 1000,
    writes: lags.length,
    purgeLagMs: { p50: Math.round(percentile(lags, 0.5)), p95: Math.round(percentile(lags, 0.95)), max: Math.round(Math.max(0, ...lags)) },
  };
}
