/**
 * `npm run build`: the service compiled to JavaScript in dist/ (what `npm start` and `npm run worker`
 * run in production: no TypeScript compiler at run time), the admin console in
 * packages/console/dist and the storefront in packages/storefront/build. `--if-stale` (what `npm start` runs first) builds only what is older than
 * its sources, so a restart costs nothing; `--server` leaves the web apps out (the worker serves none).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole, consoleIsStale } from './console-build.js';
import { buildStorefront, storefrontIsStale } from './storefront-build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Written after a successful compile: its time is the build's. */
const marker = path.join(root, 'dist', '.built');
const sources = [
  path.join(root, 'src'),
  path.join(root, 'scripts'),
  path.join(root, 'tsconfig.json'),
  path.join(root, 'tsconfig.build.json'),
  path.join(root, 'package.json'),
];

function newest(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

export function serverIsStale(): boolean {
  return !existsSync(marker) || statSync(marker).mtimeMs < Math.max(...sources.map(newest));
}

/** tsc with tsconfig.build.json (incremental): src/ to dist/. */
export async function buildServer(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`tsc exited with ${code}`);
  writeFileSync(marker, new Date().toISOString());
}

async function step(name: string, stale: () => boolean, build: () => Promise<void>, ifStale: boolean): Promise<void> {
  if (ifStale && !stale()) return;
  const started = Date.now();
  try {
    await build();
  } catch (error) {
    // Without its build tools (a production install without dev dependencies) a build shipped with
    // the deploy is used as it is; without one the service cannot start and says so.
    const code = (error as NodeJS.ErrnoException).code;
    if (ifStale && (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND')) {
      if (name === 'service' && !existsSync(path.join(root, 'dist', 'src', 'main.js'))) {
        throw new Error(
          'The service is not built and TypeScript is not installed: run `npm run build` where it is (a full `npm install`) and ship dist/',
        );
      }
      console.warn(`${name}: build tools are not installed, using the build that is there (run \`npm run build\` where they are)`);
      return;
    }
    throw error;
  }
  console.log(`${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The service (and, unless `server`, the console and the storefront); with `ifStale`, only what is older than its sources. */
export async function build(options: { ifStale: boolean; server: boolean }): Promise<void> {
  await step('service', serverIsStale, buildServer, options.ifStale);
  if (!options.server) {
    await step('console', consoleIsStale, buildConsole, options.ifStale);
    await step('storefront', storefrontIsStale, buildStorefront, options.ifStale);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build({ ifStale: process.argv.includes('--if-stale'), server: process.argv.includes('--server') }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
