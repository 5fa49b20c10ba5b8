/**
 * Lighthouse (12.2.3, the last that installs on Node 20) on the storefront's home, category, product
 * and cart pages, with its default mobile profile (a mid-range phone, simulated slow 4G and a 4x
 * slower CPU), driving the Chromium inside @sparticuz/chromium. Audited on the demo store that
 * `npm run seed` makes (pictures, reviews), in a database of its own on the bench's server, served
 * by the service in production mode.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import pg from 'pg';
import { launchOptions } from '../test/helpers/chromium.js';

export const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100, 'best-practices': 95, seo: 100 } as const;
type Category = keyof typeof LIGHTHOUSE_TARGETS;

export interface PageScores {
  page: string;
  path: string;
  scores: Record<Category, number>;
  /** Largest Contentful Paint and Total Blocking Time as Lighthouse simulated them, ms. */
  lcpMs: number;
  tbtMs: number;
  /** Audits that lost points, for the notes. */
  failing: string[];
  /** The performance score of every run (the scores above are the median run's). */
  performanceRuns?: number[];
}

function run(command: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command.join(' ')} exited with ${code}`))));
  });
}

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

export async function auditStorefront(options: {
  serverUrl: string;
  port: number;
  scratch: string;
  log: (m: string) => void;
}): Promise<PageScores[]> {
  const { serverUrl, port, scratch, log } = options;
  const base = `http://127.0.0.1:${port}`;
  const name = `bench_demo_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(),
    PUBLIC_BASE_URL: base,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(scratch, 'demo'),
    LOG_LEVEL: 'warn',
    METRICS_PORT: '0',
    PASSWORD_HASH_COST: '10',
  };
  let service: ChildProcess | null = null;
  try {
    const started = Date.now();
    await run(['--import', 'tsx', 'scripts/seed.ts'], { ...env, NODE_ENV: 'development' });
    log(`lighthouse: demo store seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    service = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, ...env, NODE_ENV: 'production' },
      stdio: 'inherit',
    });
    await waitUp(`${base}/health/ready`);

    const { data } = (await (await fetch(`${base}/api/v1/products?limit=1&sort=-rating`)).json()) as {
      data: { public_id: string; slug: string; variants: { public_id: string }[] }[];
    };
    const product = data[0]!;
    // The cart with a line in it (a visitor's cart is a cookie of the storefront's own).
    const cart = `cart=${product.public_id}~${product.variants[0]!.public_id}~1`;
    const pages: { page: string; path: string; cookie?: string }[] = [
      { page: 'home', path: '/' },
      { page: 'category', path: '/c/apparel' },
      { page: 'product', path: `/p/${product.slug}` },
      { page: 'cart', path: '/cart', cookie: cart },
    ];

    return await lighthouseScores(base, pages, log);
  } finally {
    if (service && service.exitCode === null) {
      // The service drains before it exits; its database goes only after.
      const exited = new Promise((resolve) => service!.once('exit', resolve));
      service.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    }
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup
      .connect()
      .then(() => cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
      .catch(() => {});
    await cleanup.end().catch(() => {});
  }
}

/**
 * Lighthouse's scores for each page of a running storefront at `base` (a `cookie` goes with its page's
 * requests): the median of `runs` runs by performance score, as Lighthouse's docs advise, since one
 * run on a shared machine moves with whatever else the CPU is doing (blocking time most).
 */
export async function lighthouseScores(
  base: string,
  pages: { page: string; path: string; cookie?: string }[],
  log: (m: string) => void,
  runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3),
): Promise<PageScores[]> {
  // The browser tests' Chromium with their flags (the serverless ones that would change what is measured left out).
  const { executablePath, args } = await launchOptions();
  const chrome = await launch({ chromePath: executablePath, chromeFlags: args, logLevel: 'silent' });
  try {
    const results: PageScores[] = [];
    for (const target of pages) {
      // One unmeasured visit first, so the server's own first-request work (module loading, prepared statements) is not scored.
      await fetch(base + target.path, { headers: target.cookie ? { cookie: target.cookie } : {} });
      const tries: PageScores[] = [];
      for (let run = 0; run < runs; run++) tries.push(await audit(chrome.port, base, target));
      tries.sort((a, b) => a.scores.performance - b.scores.performance);
      const median = { ...tries[Math.floor(tries.length / 2)]!, performanceRuns: tries.map((t) => t.scores.performance) };
      results.push(median);
      log(
        `lighthouse ${target.page}: ${Object.entries(median.scores)
          .map(([k, v]) => `${k} ${v}`)
          .join(
            ', ',
          )} (performance in ${runs} runs: ${median.performanceRuns.join(', ')})${median.failing.length ? `; below 1: ${median.failing.join(', ')}` : ''}`,
      );
    }
    return results;
  } finally {
    await chrome.kill();
  }
}

async function audit(port: number, base: string, target: { page: string; path: string; cookie?: string }): Promise<PageScores> {
  const result = await lighthouse(base + target.path, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: Object.keys(LIGHTHOUSE_TARGETS),
    ...(target.cookie ? { extraHeaders: { Cookie: target.cookie } } : {}),
  });
  if (!result) throw new Error(`lighthouse gave no result for ${target.path}`);
  const { lhr } = result;
  const scores = Object.fromEntries(
    (Object.keys(LIGHTHOUSE_TARGETS) as Category[]).map((key) => [key, Math.round((lhr.categories[key]?.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
    .map((a) => `${a.id} (${a.score})`);
  return {
    page: target.page,
    path: target.path,
    scores,
    lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
    tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    failing,
  };
}
