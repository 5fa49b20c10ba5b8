/**
 * The test runner behind `npm test` (everything), `npm run test:fast` (unit + HTTP) and
 * `npm run test:unit` (no database, no build, no browser). Arguments filter the files by
 * substring of their path: `npm test -- orders` runs every file whose path contains "orders".
 *
 * For anything beyond unit tests it starts one PostgreSQL for the whole run (embedded in a
 * temporary directory, or TEST_DATABASE_URL) with a migrated template database; each file clones
 * the template into a database of its own (CREATE DATABASE ... TEMPLATE), so files run in
 * parallel. Browser files share one Chromium started here (each test opens its own context).
 *
 * Each file runs as one JavaScript module compiled before the run (test/bundle.ts), on plain Node.
 *
 * Short HTTP files share processes, each file in a suite of its own (test/groups.ts: a process of
 * its own cost each one about two CPU-seconds); every other file has one to itself. Processes run
 * TEST_CONCURRENCY at a time (default: one more than the machine's cores: most files wait on
 * PostgreSQL as much as they compute), the longest first by the last run's timings. The end of a
 * run prints the totals and the ten slowest files.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { bundleTests } from './test/bundle.js';
import { planRuns } from './test/groups.js';
import { failed, runPool, stopPool, type FileResult } from './test/pool.js';
import { prepareBuilds, prepareDatabase, startSharedBrowser, type Shared } from './test/resources.js';
import { TIERS_OF, testFilesUnder, tierOf, type Selection } from './test/tiers.js';
import { expectedSeconds, saveTimings } from './test/timings.js';

function parseArgs(argv: readonly string[]): { selection: Selection; filter: string[] } {
  let selection: Selection = 'all';
  const filter: string[] = [];
  for (const arg of argv) {
    const tier = /^--tier=(unit|fast|all)$/.exec(arg);
    if (tier) selection = tier[1] as Selection;
    else filter.push(arg);
  }
  return { selection, filter };
}

function selectFiles(selection: Selection, filter: readonly string[]): string[] {
  const roots = [path.resolve('test'), ...['client', 'console', 'storefront'].map((name) => path.resolve('packages', name, 'test'))];
  return (
    roots
      .flatMap(testFilesUnder)
      .filter((file) => TIERS_OF[selection].includes(tierOf(file)))
      // Matched against the path from the repository root, so a checkout's own folder name never matches.
      .filter((file) => filter.length === 0 || filter.some((part) => path.relative(process.cwd(), file).includes(part)))
  );
}

function concurrency(): number {
  const configured = Number(process.env.TEST_CONCURRENCY);
  return Number.isInteger(configured) && configured > 0 ? configured : availableParallelism() + 1;
}

function summary(results: readonly FileResult[], seconds: number): string {
  const total = (key: 'tests' | 'pass' | 'fail' | 'skipped' | 'todo' | 'cancelled') => results.reduce((sum, r) => sum + r[key], 0);
  const bad = results.filter(failed);
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  const name = (file: string) => path.relative(process.cwd(), file);
  const lines = [
    '',
    '── slowest files ──',
    ...slowest.map((r) => `${r.seconds.toFixed(1).padStart(7)} s  ${name(r.file)}`),
    '',
    '── summary ──',
    `files ${results.length} (${results.length - bad.length} passed, ${bad.length} failed)`,
    `tests ${total('tests')}`,
    `pass ${total('pass')}`,
    `fail ${total('fail')}`,
    `cancelled ${total('cancelled')}`,
    `skipped ${total('skipped')}`,
    `todo ${total('todo')}`,
    `duration ${seconds.toFixed(1)} s`,
    ...(bad.length > 0 ? ['', 'failed files:', ...bad.map((r) => `  ${name(r.file)}`)] : []),
    ...(bad.some((r) => r.why)
      ? ['', '── why ──', ...bad.flatMap((r) => (r.why ? [name(r.file), ...r.why.map((line) => `  ${line}`), ''] : []))]
      : []),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<number> {
  const started = Date.now();
  const { selection, filter } = parseArgs(process.argv.slice(2));
  const files = selectFiles(selection, filter);
  if (files.length === 0) {
    console.error(`No test files match ${filter.join(' ')} in the ${selection} tier.`);
    return 1;
  }
  const needs = new Set(files.map(tierOf));
  const shared: Shared[] = [];
  const cleanups: (() => void)[] = [];
  // Files run in process groups of their own (so a timeout ends what they started): an interrupted run
  // ends them itself, then stops the shared PostgreSQL and browser below, instead of leaving them running.
  const interrupted: { signal?: NodeJS.Signals; stopped?: Promise<void> } = {};
  const interrupt = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the files still running`);
    interrupted.signal = signal;
    interrupted.stopped = stopPool();
  };
  process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
  try {
    // Each file runs as one module compiled here (plain Node starts it in a fraction of tsx's time).
    const needsDatabase = [...needs].some((tier) => tier !== 'unit');
    const runs = planRuns(files, expectedSeconds());
    const bundles = await bundleTests(runs, { services: needsDatabase });
    cleanups.push(bundles.remove);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
    if (bundles.services) env.TEST_SERVICE_MODULES = bundles.services;
    if (needsDatabase) {
      const database = await prepareDatabase();
      shared.push(database);
      Object.assign(env, database.env);
    }
    // Real-process tests that go through `npm start` run the compiled service (and the storefront it
    // serves); browser tests, the built console and storefront.
    const throughStart = needs.has('faults') || needs.has('browser');
    await prepareBuilds({ server: throughStart, console: needs.has('browser'), storefront: throughStart });
    if (needs.has('browser')) {
      const browser = await startSharedBrowser();
      shared.push(browser);
      Object.assign(env, browser.env);
    }
    const workers = concurrency();
    console.log(
      `${files.length} test files (${selection}) in ${runs.length} ${runs.length === 1 ? 'process' : 'processes'} on Node ${process.version}, ${workers} at a time`,
    );
    const results = await runPool(runs, {
      concurrency: workers,
      env,
      fileTimeoutMs: Number(process.env.TEST_FILE_TIMEOUT_MS ?? 5 * 60_000),
      verbose: Boolean(process.env.TEST_VERBOSE),
      cpuProfileDir: process.env.TEST_CPU_PROF ?? null,
      moduleOf: bundles.of,
    });
    if (interrupted.signal) {
      await interrupted.stopped;
      return interrupted.signal === 'SIGINT' ? 130 : 143;
    }
    saveTimings(results);
    console.log(summary(results, (Date.now() - started) / 1000));
    return results.some(failed) ? 1 : 0;
  } finally {
    for (const cleanup of cleanups) cleanup();
    for (const resource of shared.reverse()) await resource.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
