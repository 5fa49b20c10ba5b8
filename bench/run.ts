/**
 * `npm run bench`: seeds a large store, starts the service (production mode)
 * and a bare Fastify + pg baseline on the same database, drives both with
 * autocannon from a separate process, and reports every scenario as a ratio
 * to the baseline measured in the same run. See bench/NOTES.md.
 *
 * Environment: BENCH_DATABASE_URL (else an embedded PostgreSQL in a temp dir),
 * BENCH_DURATION (seconds per round, default 5), BENCH_WARMUP (default 3),
 * BENCH_ONLY (comma-separated scenario names), BENCH_CPU_PROF (a directory:
 * the service writes a V8 CPU profile there when it stops; open it in Chrome
 * DevTools or speedscope), BENCH_INSTANCES (e.g. 1,2,3: the scenarios against
 * each count of instances, behind a round-robin balancer and spread by the
 * load driver; see bench/scale-out.ts), BENCH_HIT_THREADS (the load driver's
 * threads on Varnish's hit path, default 2), BENCH_PAGE_CACHE_MS (the service's
 * STOREFRONT_PAGE_CACHE_MS, default 5000; 0 as behind a purged cache).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { createDb } from '../src/db/database.js';
import { startEmbeddedDatabase } from '../src/db/embedded.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { hashPassword } from '../src/lib/password.js';
import { newPublicId } from '../src/lib/ids.js';
import { BENCH_SIZES, seedBenchStore } from './seed.js';
import { prepareShoppers } from './shoppers.js';
import { cpuMeter, postmasterPid, type CpuShares } from './cpu.js';
import { instanceCounts, scaleOutTable, SCALE_OUT_SCENARIOS, setupsFor } from './scale-out.js';
import { auditStorefront, LIGHTHOUSE_TARGETS, type PageScores } from './lighthouse.js';
import { buildStorefront, storefrontIsStale } from '../scripts/storefront-build.js';
import { gzipSync } from 'node:zlib';
import { startBalancer, type Balancer } from '../test/helpers/balancer.js';
import type { Round } from './types.js';
import {
  WEBHOOK_PAIRS,
  webhookBench,
  webhookSummary,
  withoutWebhooks,
  withWebhooks,
  type WebhookBench,
  type WebhookStats,
} from './webhooks.js';
import { startDiagnostics } from './diagnostics.js';
import { median } from './stats.js';
import { browseMix, PURGE_TOKEN, startCacheBench, type BrowseMixStats, type CacheBench } from './cache.js';

const PASSWORD = 'Bench-Pass-1';
const MEDIA_SIZES = [
  ['20k.png', 20 * 1024],
  ['500k.png', 500 * 1024],
] as const;
const settings = {
  connections: 50,
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 3),
  roundSeconds: Number(process.env.BENCH_DURATION ?? 5),
  rounds: 3,
};
/** autocannon threads on Varnish's hit path (see its scenarios); every other scenario has one. */
const HIT_PATH_DRIVER_THREADS = Number(process.env.BENCH_HIT_THREADS ?? 2);
const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;
const counts = instanceCounts(process.env.BENCH_INSTANCES);
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()) ?? (counts ? SCALE_OUT_SCENARIOS : undefined);

/** How long the service is watched at rest after the last scenario (its RSS once the load's garbage is collected). */
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 30);
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function startProcess(script: string, env: Record<string, string>, nodeFlags: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') log(`${script} exited with ${code ?? signal}`);
  });
  return child;
}

async function waitFor(url: string, seconds = 60): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** Signs in over HTTP the way a browser would: pre-session CSRF token, login, then the session's CSRF token. */
async function signIn(base: string, email: string) {
  const first = await fetch(`${base}/api/v1/auth/csrf-token`);
  const presession = first.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf1 = ((await first.json()) as any).data.csrf_token;
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: presession, 'x-csrf-token': csrf1 },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c?.startsWith('session='))!;
  const token = await fetch(`${base}/api/v1/auth/csrf-token`, { headers: { cookie } });
  const csrf = ((await token.json()) as any).data.csrf_token as string;
  const addresses = await fetch(`${base}/api/v1/users/me/addresses`, { headers: { cookie } });
  const addressId = ((await addresses.json()) as any).data[0]?.public_id as string;
  return { cookie, csrf, addressId };
}

function runLoad(scenario: object): Promise<Round[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load.ts'], {
      env: { ...process.env, BENCH_SCENARIO: JSON.stringify(scenario), BENCH_SETTINGS: JSON.stringify(settings) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Round[]) : reject(new Error(`load driver exited ${code}`))));
  });
}

function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}

/**
 * What a resting RSS is made of, from the service's own /metrics (prom-client's default process metrics): the
 * V8 heap in use and the memory held outside it (Buffers). The rest of RSS is V8's reserved but unused heap,
 * code and the allocator's free lists, which the process keeps rather than gives back.
 */
async function heapOf(metricsUrl: string): Promise<{ heapUsedMb: number; externalMb: number } | null> {
  try {
    const response = await fetch(metricsUrl);
    // A METRICS_TOKEN in the bench's environment closes /metrics to this unauthenticated read: then nothing is said.
    if (!response.ok) return null;
    const text = await response.text();
    const mb = (name: string) => Math.round(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20);
    const figures = { heapUsedMb: mb('nodejs_heap_size_used_bytes'), externalMb: mb('nodejs_external_memory_bytes') };
    return Number.isFinite(figures.heapUsedMb) && Number.isFinite(figures.externalMb) ? figures : null;
  } catch {
    return null;
  }
}

/** The product page's scripts (SvelteKit names them in its Link header), gzipped: the issue's budget is 60 KB. */
const JS_BUDGET_BYTES = 60 * 1024;
async function pageScriptsGzipped(pageUrl: string): Promise<number> {
  const page = await fetch(pageUrl);
  if (!page.ok) throw new Error(`${pageUrl}: ${page.status}`);
  const scripts = [...(page.headers.get('link') ?? '').matchAll(/<([^>]+\.js)>; rel="modulepreload"/g)].map(
    (m) => new URL(m[1]!, pageUrl).href,
  );
  let total = 0;
  for (const script of scripts) total += gzipSync(Buffer.from(await (await fetch(script)).arrayBuffer()), { level: 9 }).length;
  return total;
}

async function main() {
  const started = Date.now();
  const storefront = !only || only.some((o) => o.includes('storefront') || o.includes('lighthouse'));
  // The service mounts the storefront's production build; made here when its sources changed.
  if (storefront && storefrontIsStale()) {
    log('building the storefront');
    await buildStorefront();
  }
  const scratch = mkdtempSync(path.join(tmpdir(), 'commerce-bench-'));
  chmodSync(scratch, 0o755);
  const server = process.env.BENCH_DATABASE_URL
    ? { url: process.env.BENCH_DATABASE_URL, stop: async () => {} }
    : await startEmbeddedDatabase(scratch, { database: 'postgres' });
  const dbName = `bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(server.url);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();

  const children: ChildProcess[] = [];
  let balancer: Balancer | null = null;
  let hooksToClose: WebhookBench | null = null;
  let cache: CacheBench | null = null;
  try {
    await migrateToLatest(databaseUrl);
    const db = createDb(databaseUrl, 4);
    const hash = await hashPassword(PASSWORD, 15);
    let t = Date.now();
    await seedBenchStore(db, hash);
    log(
      `seeded ${BENCH_SIZES.products} products, ${BENCH_SIZES.products * BENCH_SIZES.variantsPerProduct} variants, ${BENCH_SIZES.customers} customers, ${BENCH_SIZES.orders} orders in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
    const { id: adminId } = await db
      .insertInto('users')
      .values({
        public_id: newPublicId('usr'),
        email: 'admin@bench.test',
        password_hash: hash,
        first_name: 'Bench',
        last_name: 'Admin',
        phone_number: null,
        role: 'SUPER_ADMIN',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Uploaded images of two sizes (a thumbnail, a product photo), stored as the service stores them and as files beside.
    const mediaDir = path.join(scratch, 'media');
    mkdirSync(mediaDir);
    for (const [name, size] of MEDIA_SIZES) {
      const content = randomBytes(size);
      writeFileSync(path.join(mediaDir, name), content);
      await db
        .insertInto('media_files')
        .values({
          path: `/bench/${name}`,
          url: `http://bench/media/bench/${name}`,
          folder: '/bench/',
          user_id: adminId,
          mime_type: 'image/png',
          size,
          content,
        })
        .execute();
    }

    // Checkout stock: plenty on 2,000 spread variants and on one hot variant, so a rejection means a bug, not a sell-out.
    const spread = await sql<{ public_id: string }>`
      SELECT v.public_id FROM variants v JOIN products p ON p.id = v.product_id
      WHERE p.status = 'ACTIVE' ORDER BY v.id LIMIT 2000`.execute(db);
    const variants = spread.rows.map((r) => r.public_id);
    const hot = variants[0]!;
    await sql`UPDATE inventory SET quantity_on_hand = 1000000 WHERE variant_id IN (SELECT id FROM variants WHERE public_id = ANY(${variants}))`.execute(
      db,
    );
    const sample = await sql<{ product: string; category: string; productSlug: string; categorySlug: string }>`
      SELECT p.public_id AS product, c.public_id AS category, p.slug AS "productSlug", c.slug AS "categorySlug" FROM products p
      JOIN product_categories pc ON pc.product_id = p.id JOIN categories c ON c.id = pc.category_id
      WHERE p.status = 'ACTIVE' ORDER BY p.id LIMIT 1`.execute(db);
    const { product, category, productSlug: firstSlug, categorySlug } = sample.rows[0]!;
    // The product page measured: one whose stock says no more than in stock or not (a page saying "only 3 left" is
    // private, docs/caching.md), so that Varnish may keep it; the seed makes product 1 one of those that say more.
    const plenty = await sql<{ slug: string }>`
      SELECT p.slug FROM products p WHERE p.status = 'ACTIVE' AND NOT EXISTS (
        SELECT 1 FROM variants v JOIN inventory i ON i.variant_id = v.id
        WHERE v.product_id = p.id AND (i.quantity_on_hand - i.quantity_reserved <= coalesce(i.reorder_level, 0) OR i.quantity_on_hand < 100))
      ORDER BY p.id LIMIT 1`.execute(db);
    const productSlug = plenty.rows[0]?.slug ?? firstSlug;
    // What a page rendered for every request carries: a visitor's cart of one line (guest-cart.ts), which the page's
    // header counts, so no page kept for everyone may answer it.
    const carted = await sql<{ product: string; variant: string }>`
      SELECT p.public_id AS product, v.public_id AS variant FROM variants v JOIN products p ON p.id = v.product_id
      WHERE v.public_id = ${variants[1]!}`.execute(db);
    const renderedCookie = `cart=id~benchbenchbenchbench.${carted.rows[0]!.product}~${carted.rows[0]!.variant}~1`;

    const [port, basePort, varnishPort, metricsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const serviceEnv = (port: number, dataDir: string, metrics = 0) => ({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      // The first instance's /metrics tell what its memory at rest is made of; the others need none.
      METRICS_PORT: String(metrics),
      // The bench measures the engine; 50 accounts ordering hundreds of times a minute would be throttled by design.
      RATE_LIMIT_CHECKOUT: '0',
      RATE_LIMIT_LOGIN: '0',
      RATE_LIMIT_LOGIN_IP: '0',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      // The webhook scenario's receivers run in this process, on loopback.
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1',
      // Varnish in front for the cache scenarios (bench/cache.ts), told of every catalog change.
      CACHE_PURGE_URLS: `http://127.0.0.1:${varnishPort}/.cache/purge`,
      CACHE_PURGE_TOKEN: PURGE_TOKEN,
      // The direct page scenarios measure a shop without a cache in front (which keeps cookie-less pages
      // 5 s); with Varnish in front it would keep none, and Varnish's hit path is measured on its own.
      // BENCH_PAGE_CACHE_MS=0 runs the service as behind a purged cache: a page's 304 then comes from
      // the catalog's version, as Varnish's revalidations get it.
      STOREFRONT_PAGE_CACHE_MS: process.env.BENCH_PAGE_CACHE_MS ?? '5000',
    });
    const service = startProcess(
      'src/main.ts',
      serviceEnv(port, scratch, metricsPort),
      profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    children.push(service);
    const baselineServer = startProcess('bench/baseline.ts', {
      DATABASE_URL: databaseUrl,
      PORT: String(basePort),
      BENCH_MEDIA_DIR: mediaDir,
    });
    children.push(baselineServer);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/health/ready`);
    // Instance runs: the other instances, each with a data directory of its own, and the balancer in front.
    const instances = [{ url: base, pid: service.pid! }];
    for (let i = 2; i <= Math.max(1, ...(counts ?? [])); i++) {
      const extraPort = await freePort();
      const extra = startProcess('src/main.ts', serviceEnv(extraPort, path.join(scratch, `instance-${i}`)));
      children.push(extra);
      instances.push({ url: `http://127.0.0.1:${extraPort}`, pid: extra.pid! });
      await waitFor(`http://127.0.0.1:${extraPort}/health/ready`);
    }
    balancer = counts ? await startBalancer(instances.map((i) => i.url)) : null;
    const cpu = cpuMeter(process.env.BENCH_DATABASE_URL ? null : postmasterPid(path.join(scratch, 'postgres')));
    await waitFor(`http://127.0.0.1:${basePort}/products`);

    const cacheNames = ['cache hit', '304 direct', 'browse mix'];
    if (!only || only.some((o) => cacheNames.some((name) => name.includes(o) || o.includes(name)))) {
      cache = await startCacheBench(base, varnishPort);
    }
    const adminSession = await signIn(base, 'admin@bench.test');
    const shoppers = [];
    for (let i = 1; i <= settings.connections; i++) shoppers.push(await signIn(base, `customer${i}@bench.test`));
    const customer = shoppers[0]!;
    const hooks = (hooksToClose = await webhookBench({ db, base, admin: adminSession }));
    const webhookRun: { stats: WebhookStats[] } = { stats: [] };

    // One prepared cart per POST /orders: more than the warm-up and rounds can use at 1,000 orders/s.
    const cartsPerScenario = Math.ceil((settings.warmupSeconds + settings.rounds * settings.roundSeconds) * 1000 * 1.25);
    const shopperFiles: Record<'spread' | 'hot', string> = {
      spread: path.join(scratch, 'shoppers-spread.json'),
      hot: path.join(scratch, 'shoppers-hot.json'),
    };
    const get = (path: string, headers?: Record<string, string>) => ({ kind: 'get', url: base, path, headers });
    const adminGet = (path: string) => get(path, { cookie: adminSession.cookie });
    // Prepared just before their scenario, as a shopper's cart adds would leave them: a session seen moments ago.
    let prepared = 0;
    const prepare = (tag: 'spread' | 'hot') => async () => {
      const started = Date.now();
      const batch = `${tag}${prepared++ || ''}`; // instance runs prepare a scenario's shoppers once per setup
      writeFileSync(
        shopperFiles[tag],
        JSON.stringify(await prepareShoppers(db, batch, cartsPerScenario, hash, variants, tag === 'hot' ? hot : null)),
      );
      log(`prepared ${cartsPerScenario} shoppers with a cart of two lines in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    };
    const scenarios: { name: string; scenario: { kind: string }; prepare?: () => Promise<void>; after?: () => Promise<void> }[] = [
      { name: 'baseline', scenario: { kind: 'get', url: `http://127.0.0.1:${basePort}`, path: '/products' } },
      { name: 'products: first page', scenario: get('/api/v1/products') },
      { name: 'products: deep page (400)', scenario: get('/api/v1/products?page=400') },
      { name: 'products: search', scenario: get('/api/v1/products?search=summit') },
      // The storefront's search asks for its best matches first: the rank is computed over the matches.
      { name: 'products: search, best match first', scenario: get('/api/v1/products?search=summit&sort=relevance') },
      { name: 'products: category + price range', scenario: get(`/api/v1/products?category=${category}&min_price=50&max_price=300`) },
      { name: 'products: sort by price', scenario: get('/api/v1/products?sort=price') },
      { name: 'product detail', scenario: get(`/api/v1/products/${product}`) },
      // Anonymous shop pages, rendered on the server (SvelteKit) from in-process API calls.
      { name: 'storefront: category page', scenario: get(`/c/${categorySlug}`) },
      { name: 'storefront: product page', scenario: get(`/p/${productSlug}`) },
      // The same pages rendered for every request: a visitor with a cart (renderedCookie) skips the storefront's
      // micro-cache of pages; their page counts the cart from its cookie and asks the API nothing more for it.
      { name: 'storefront: category page, rendered each time', scenario: get(`/c/${categorySlug}`, { cookie: renderedCookie }) },
      { name: 'storefront: product page, rendered each time', scenario: get(`/p/${productSlug}`, { cookie: renderedCookie }) },
      { name: 'storefront: search page, rendered each time', scenario: get('/search?q=summit', { cookie: renderedCookie }) },
      // The same reads on Varnish's hit path, and direct to the service as revalidations (304, counted as non-2xx).
      ...(cache
        ? [
            ['products: first page', '/api/v1/products'],
            ['products: category + price range', `/api/v1/products?category=${category}&min_price=50&max_price=300`],
            ['product detail', `/api/v1/products/${product}`],
            ...(storefront
              ? [
                  ['storefront: category page', `/c/${categorySlug}`],
                  ['storefront: product page', `/p/${productSlug}`],
                ]
              : []),
          ].flatMap(([label, path]) => {
            const conditional: Record<string, string> = {};
            return [
              {
                name: `cache hit (Varnish): ${label}`,
                // As a browser asks: Varnish keeps pages gzipped and would otherwise unzip each one it sends.
                // Two driver threads: one saturates its core near 9,000 pages/s (8-9 KB each) while Varnish
                // idles at a quarter of a core, which would measure the driver, not the cache.
                scenario: {
                  kind: 'get',
                  url: cache!.varnish.url,
                  path,
                  headers: { 'accept-encoding': 'gzip, deflate, br' },
                  threads: HIT_PATH_DRIVER_THREADS,
                },
                // A page the cache may not keep would measure the service behind a pass instead.
                async prepare() {
                  await fetch(cache!.varnish.url + path);
                  const second = await fetch(cache!.varnish.url + path);
                  if (second.headers.get('x-cache') !== 'HIT')
                    throw new Error(`${path} is not a hit through Varnish: ${second.headers.get('x-cache')}`);
                },
              },
              {
                name: `304 direct: ${label}`,
                scenario: get(path!, conditional),
                async prepare() {
                  conditional['if-none-match'] = (await fetch(base + path)).headers.get('etag')!;
                },
              },
            ];
          })
        : []),
      { name: 'my addresses', scenario: get('/api/v1/users/me/addresses', { cookie: customer.cookie }) },
      { name: 'admin inventory: search', scenario: adminGet('/api/v1/admin/inventory?search=summit') },
      { name: 'admin inventory: stock_status=LOW_STOCK', scenario: adminGet('/api/v1/admin/inventory?stock_status=LOW_STOCK') },
      ...['product_name', 'sku', 'quantity_on_hand', 'quantity_available', 'last_stock_update', '-last_stock_update'].map((sort) => ({
        name: `admin inventory: sort ${sort}`,
        scenario: adminGet(`/api/v1/admin/inventory?sort=${sort}`),
      })),
      ...MEDIA_SIZES.flatMap(([file, size]) => [
        {
          name: `media ${size / 1024} KB: from disk, bare Fastify`,
          scenario: { kind: 'get', url: `http://127.0.0.1:${basePort}`, path: `/media-disk/${file}` },
        },
        {
          name: `media ${size / 1024} KB: from PostgreSQL, bare Fastify`,
          scenario: { kind: 'get', url: `http://127.0.0.1:${basePort}`, path: `/media-db/${file}` },
        },
        { name: `media ${size / 1024} KB: the service`, scenario: get(`/media/bench/${file}`) },
      ]),
      { name: 'baseline (again)', scenario: { kind: 'get', url: `http://127.0.0.1:${basePort}`, path: '/products' } },
      // The checkout baseline (bench/raw-checkout.ts): the same transaction through node-postgres, no HTTP, on carts prepared alike.
      {
        name: 'checkout baseline: raw transaction, spread',
        scenario: { kind: 'raw-checkout', databaseUrl, shoppersFile: shopperFiles.spread },
        prepare: prepare('spread'),
      },
      { name: withoutWebhooks(0), scenario: { kind: 'orders', url: base, shoppersFile: shopperFiles.spread }, prepare: prepare('spread') },
      // The same with three active endpoints subscribed to order.placed (issue 29: an event's cost stays within 10%),
      // alternating with the checkout without them: two runs of the same checkout differ by up to a fifth, either way, so
      // each run with webhooks is compared with the mean of the runs on both sides, and the median of those is reported.
      ...Array.from({ length: WEBHOOK_PAIRS }, (_, i) => [
        {
          name: withWebhooks(i),
          scenario: { kind: 'orders', url: base, shoppersFile: shopperFiles.spread },
          async prepare() {
            await prepare('spread')();
            await hooks.subscribe(3);
          },
          async after() {
            const stats = await hooks.unsubscribe();
            webhookRun.stats.push(stats);
            log(
              `webhooks: ${stats.deliveredByTheEnd} of ${stats.owed} deliveries sent by the last round's end, the rest within ${stats.drainSeconds} s; ${stats.received} requests received; retried: ${JSON.stringify(stats.retried)}`,
            );
          },
        },
        {
          name: withoutWebhooks(i + 1),
          scenario: { kind: 'orders', url: base, shoppersFile: shopperFiles.spread },
          prepare: prepare('spread'),
        },
      ]).flat(),
      {
        name: 'checkout baseline: raw transaction, hot variant',
        scenario: { kind: 'raw-checkout', databaseUrl, shoppersFile: shopperFiles.hot },
        prepare: prepare('hot'),
      },
      { name: 'checkout: hot variant', scenario: { kind: 'orders', url: base, shoppersFile: shopperFiles.hot }, prepare: prepare('hot') },
      { name: 'checkout flow: 2 cart adds + order', scenario: { kind: 'checkout', url: base, sessions: shoppers, hot: null, variants } },
    ].filter((s) => !only || s.name.startsWith('baseline') || only.some((o) => s.name.includes(o)));

    // Pages are measured warm, as a running shop serves them: the first renders load the storefront's modules and fill its caches.
    if (storefront)
      for (const path of [`/c/${categorySlug}`, `/p/${productSlug}`, '/search?q=summit'])
        for (let i = 0; i < 20; i++) await fetch(base + path);

    // A freshly loaded table has no visibility map or hint bits yet; without this the first scenarios
    // (the baseline among them) run on a colder database than the last ones.
    await sql`VACUUM ANALYZE`.execute(db);

    const checkoutStart = new Date();
    const results: {
      name: string;
      setup: string;
      rps: number;
      p50: number;
      p99: number;
      errors: number;
      non2xx: number;
      ordersPerSecond?: number;
      rejected?: number;
      cpu: CpuShares;
    }[] = [];
    const setups = setupsFor(counts);
    // Scenarios on the service run once per setup; those on the bare baseline server, once.
    const onService = (scenario: object) => 'url' in scenario && scenario.url === base;
    for (const { name, scenario, prepare, after } of scenarios)
      for (const setup of onService(scenario) ? setups : setups.slice(0, 1)) {
        // The whole checkout flow gives each connection its own session; the driver does not spread it.
        if (setup.via === 'driver' && scenario.kind === 'checkout') continue;
        await prepare?.();
        t = Date.now();
        const targets = instances.slice(0, setup.instances);
        balancer?.use(targets.map((i) => i.url));
        // The "service" whose CPU is measured is the server the scenario drives: the instances, or the bare baseline server.
        const throughCache = cache !== null && 'url' in scenario && scenario.url === cache.varnish.url;
        const measure = cpu.start(
          throughCache ? [service.pid!, cache!.varnish.pid()] : onService(scenario) ? targets.map((i) => i.pid) : [baselineServer.pid!],
        );
        const routed = !onService(scenario)
          ? scenario
          : setup.via === 'balancer' && balancer
            ? { ...scenario, url: balancer.url }
            : { ...scenario, spread: targets.map((i) => i.url) };
        const diagnosed = process.env.BENCH_DIAG ? await startDiagnostics(db) : null;
        const rounds = await runLoad(routed);
        if (diagnosed) for (const line of await diagnosed()) log(`${name}: ${line}`);
        // The shares are of the load alone: what a scenario's `after` waits for (a webhook backlog draining) is reported by it.
        const shares = measure();
        await after?.();
        const row = {
          name,
          setup: onService(scenario) ? setup.label : '',
          cpu: shares,
          rps: median(rounds.map((r) => r.rps)),
          p50: median(rounds.map((r) => r.p50)),
          p99: median(rounds.map((r) => r.p99)),
          errors: rounds.reduce((s, r) => s + r.errors, 0),
          non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
          ...(rounds[0]?.ordersPerSecond !== undefined
            ? {
                ordersPerSecond: median(rounds.map((r) => r.ordersPerSecond ?? 0)),
                rejected: rounds.reduce((s, r) => s + (r.rejected ?? 0), 0),
              }
            : {}),
        };
        results.push(row);
        log(
          `${name}${row.setup ? ` [${row.setup}]` : ''}: ${row.rps.toFixed(0)} req/s, p99 ${row.p99} ms${row.ordersPerSecond !== undefined ? `, ${row.ordersPerSecond.toFixed(0)} orders/s` : ''} (${((Date.now() - t) / 1000).toFixed(0)} s; service RSS ${memoryOf(service.pid!).rssMb} MB)`,
        );
      }

    const productPageJs = storefront ? await pageScriptsGzipped(`${base}/p/${productSlug}`) : null;
    if (productPageJs !== null)
      log(`storefront: the product page ships ${(productPageJs / 1024).toFixed(1)} KB of gzipped JavaScript (budget 60 KB)`);
    // BENCH_LIGHTHOUSE_RUNS=0 leaves Lighthouse out (a run of the load scenarios alone).
    const lighthouseScores: PageScores[] | null =
      storefront && Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3) > 0
        ? await auditStorefront({ serverUrl: server.url, port: await freePort(), scratch, log })
        : null;
    let browse: BrowseMixStats | null = null;
    if (cache && (!only || only.some((o) => 'browse mix'.includes(o)))) {
      t = Date.now();
      browse = await browseMix({
        db,
        varnishUrl: cache.varnish.url,
        serviceUrl: base,
        admin: adminSession,
        seconds: Number(process.env.BENCH_BROWSE_SECONDS ?? 20),
        shoppers: 20,
        writeEveryMs: 250,
      });
      log(`browse mix through Varnish: ${JSON.stringify(browse)} (${((Date.now() - t) / 1000).toFixed(0)} s)`);
    }

    const memory = memoryOf(service.pid!);
    // At rest: what the service keeps once the load's garbage is collected. V8 collects when allocation slows (its
    // memory reducer, some seconds after the load), so the end sample above may hold a load's worth of garbage.
    let atRest = memory.rssMb;
    for (let second = 0; second < REST_SECONDS; second++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      atRest = Math.min(atRest, memoryOf(service.pid!).rssMb);
    }
    const heapAtRest = await heapOf(`http://127.0.0.1:${metricsPort}/metrics`);
    const oversold = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM inventory WHERE quantity_reserved > quantity_on_hand`.execute(db)
    ).rows[0]!.n;
    const placed = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM orders WHERE placed_at >= ${checkoutStart}`.execute(db))
      .rows[0]!.n;
    // Every order placed during the run must have its confirmation email in the outbox.
    const missing = (
      await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM orders o WHERE o.placed_at >= ${checkoutStart}
        AND NOT EXISTS (SELECT 1 FROM outbox m WHERE m.kind = 'order_placed' AND m.payload->>'order_public_id' = o.public_id)`.execute(db)
    ).rows[0]!.n;
    const emails = placed - missing;
    await db.destroy();

    const baselines = results.filter((r) => r.name.startsWith('baseline'));
    const baselineRps = baselines.reduce((s, r) => s + r.rps, 0) / Math.max(1, baselines.length);
    // Each checkout scenario against the raw transaction on the same kind of carts (the whole flow against the spread one).
    const rawOrders = (kind: 'spread' | 'hot') =>
      results.find((r) => r.name === `checkout baseline: raw transaction, ${kind === 'hot' ? 'hot variant' : 'spread'}`)?.ordersPerSecond;
    const checkoutRatios = results
      .filter((r) => r.ordersPerSecond !== undefined && !r.name.startsWith('checkout baseline'))
      .map((r) => {
        const raw = rawOrders(r.name.includes('hot') ? 'hot' : 'spread');
        return {
          name: r.setup ? `${r.name} [${r.setup}]` : r.name,
          ordersPerSecond: r.ordersPerSecond!,
          rawOrdersPerSecond: raw ?? null,
          ratio: raw ? r.ordersPerSecond! / raw : null,
        };
      });
    const report = {
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryGb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
      },
      settings,
      sizes: BENCH_SIZES,
      baselineRps,
      scenarios: results.map((r) => ({ ...r, ratio: r.rps / baselineRps })),
      checkout: {
        oversoldVariants: oversold,
        ordersPlaced: placed,
        orderEmailsInOutbox: emails,
        ordersWithoutEmail: missing,
        ratiosToRawTransaction: checkoutRatios,
        webhooks:
          webhookRun.stats.length > 0
            ? webhookSummary(webhookRun.stats, (name) => results.find((r) => r.name === name && !r.setup)?.ordersPerSecond)
            : null,
      },
      storefront: storefront
        ? {
            productPageJsGzipBytes: productPageJs,
            jsBudgetBytes: JS_BUDGET_BYTES,
            jsWithinBudget: productPageJs !== null && productPageJs <= JS_BUDGET_BYTES,
            lighthouse: {
              version: '12.2.3',
              profile: 'mobile (default: simulated slow 4G, 4x CPU)',
              targets: LIGHTHOUSE_TARGETS,
              pages: lighthouseScores,
            },
          }
        : null,
      browseMix: browse,
      service: { ...memory, rssAtRestMb: atRest, restSeconds: REST_SECONDS, ...(heapAtRest ? { atRest: heapAtRest } : {}) },
      seconds: Math.round((Date.now() - started) / 1000),
    };

    const lines = [
      `| scenario | req/s | ratio to baseline | p50 ms | p99 ms | orders/s | errors + non-2xx | CPU cores: service / PostgreSQL / load driver / others |`,
      `|---|---:|---:|---:|---:|---:|---:|---|`,
      ...report.scenarios.map(
        (r) =>
          `| ${r.name}${r.setup ? ` [${r.setup}]` : ''} | ${r.rps.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.p50} | ${r.p99} | ${r.ordersPerSecond !== undefined ? r.ordersPerSecond.toFixed(0) : ''} | ${r.errors + r.non2xx} | ${r.cpu.services} / ${r.cpu.postgres} / ${r.cpu.loadDriver} / ${r.cpu.others} |`,
      ),
      '',
      ...(counts ? [...scaleOutTable(report.scenarios, setups), ''] : []),
      `| checkout scenario | orders/s | raw transaction orders/s | ratio to the raw transaction |`,
      `|---|---:|---:|---:|`,
      ...checkoutRatios.map(
        (r) => `| ${r.name} | ${r.ordersPerSecond.toFixed(0)} | ${r.rawOrdersPerSecond?.toFixed(0) ?? ''} | ${r.ratio?.toFixed(2) ?? ''} |`,
      ),
      '',
      ...(lighthouseScores
        ? [
            `| Lighthouse (mobile), median run | performance (each run) | accessibility | best practices | SEO | LCP ms | TBT ms |`,
            `|---|---:|---:|---:|---:|---:|---:|`,
            ...lighthouseScores.map(
              (p) =>
                `| ${p.page} (${p.path}) | ${p.scores.performance} (${p.performanceRuns?.join(', ') ?? ''}) | ${p.scores.accessibility} | ${p.scores['best-practices']} | ${p.scores.seo} | ${p.lcpMs} | ${p.tbtMs} |`,
            ),
            `targets: performance >= ${LIGHTHOUSE_TARGETS.performance}, accessibility ${LIGHTHOUSE_TARGETS.accessibility}, best practices >= ${LIGHTHOUSE_TARGETS['best-practices']}, SEO ${LIGHTHOUSE_TARGETS.seo}`,
            '',
          ]
        : []),
      ...(productPageJs !== null
        ? [
            `storefront product page JavaScript: ${(productPageJs / 1024).toFixed(1)} KB gzipped (budget 60 KB: ${productPageJs <= JS_BUDGET_BYTES ? 'within' : 'OVER'})`,
          ]
        : []),
      `oversold variants: ${oversold}; orders placed during checkout scenarios: ${placed}; with their email in the outbox: ${emails} (missing: ${missing})`,
      ...(report.checkout.webhooks
        ? [
            `checkout with 3 webhook endpoints on order.placed: ${report.checkout.webhooks.ratioToWithout?.toFixed(2) ?? '?'} of the orders/s without (the median of ${report.checkout.webhooks.ratios.length} runs, each against the mean of the runs without on both sides: ${report.checkout.webhooks.ratios.map((r) => r.toFixed(2)).join(', ')}); ${report.checkout.webhooks.deliveredByTheEnd} of ${report.checkout.webhooks.owed} deliveries sent by the end of the load, all within ${report.checkout.webhooks.drainSeconds} s after it (${report.checkout.webhooks.received} received; the first run)`,
          ]
        : []),
      ...(browse
        ? [
            `browse mix through Varnish (Zipf popularity over ${BENCH_SIZES.products} products and the categories' list pages, 20 shoppers, a price change every 250 ms): hit ratio ${(browse.hitRatio * 100).toFixed(1)}% of ${browse.requests} requests; a change visible through the cache after p50 ${browse.purgeLagMs.p50} ms, p95 ${browse.purgeLagMs.p95} ms, max ${browse.purgeLagMs.max} ms (${browse.writes} changes)`,
          ]
        : []),
      `service RSS at end: ${memory.rssMb} MB (peak ${memory.peakRssMb} MB); at rest ${atRest} MB (the least in the ${REST_SECONDS} s after the load)` +
        (heapAtRest ? `, of it V8's heap in use ${heapAtRest.heapUsedMb} MB and Buffers ${heapAtRest.externalMb} MB` : ''),
      `CPU "others" is work on the machine outside the service, PostgreSQL and the load driver: Varnish in the cache scenarios, the balancer in instance runs, other sessions on a shared host`,
      `machine: ${report.machine.cpus} x ${report.machine.cpuModel}, ${report.machine.memoryGb} GB, Node ${report.machine.node}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
    const file = path.join('bench', 'results', `${report.date.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2));
    log(`wrote ${file} (${report.seconds} s in all)`);
  } finally {
    await cache?.varnish.close();
    await hooksToClose?.close();
    await balancer?.close();
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    const cleanup = new pg.Client({ connectionString: server.url });
    await cleanup
      .connect()
      .then(() => cleanup.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`))
      .catch(() => {});
    await cleanup.end().catch(() => {});
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
