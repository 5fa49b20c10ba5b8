/**
 * `npm run build`: the service compiled to JavaScript in dist/ (what `npm start` and `npm run worker`
 * run in production: no TypeScript compiler at run time), the admin console in
 * packages/console/dist and the storefront in packages/storefront/build. `--if-stale` (what `npm start` runs first) builds only what is older than
 * its sources, so a restart costs nothing; `--server` leaves the web apps out (the worker serves none).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStep, isStale, type Step } from './build-steps.js';
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

export const serverIsStale = (): boolean => isStale(marker, sources);

/** TypeScript 7's compiler (`@typescript/native`; its package exports no path to the bin, so from its folder). */
function nativeTsc(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('@typescript/native/package.json')), 'bin', 'tsc');
}

/** tsc with tsconfig.build.json (incremental): src/ to dist/. */
export async function buildServer(): Promise<void> {
  const tsc = nativeTsc();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`tsc exited with ${code}`);
  writeFileSync(marker, new Date().toISOString());
}

const SERVICE: Step = {
  name: 'service',
  stale: serverIsStale,
  build: buildServer,
  required: {
    file: path.join(root, 'dist', 'src', 'main.js'),
    otherwise:
      'The service is not built and TypeScript is not installed: run `npm run build` where it is (a full `npm install`) and ship dist/',
  },
};

/** The service (and, unless `server`, the console and the storefront); with `ifStale`, only what is older than its sources. */
export async function build(options: { ifStale: boolean; server: boolean }): Promise<void> {
  await runStep(SERVICE, options.ifStale);
  if (!options.server) {
    await runStep({ name: 'console', stale: consoleIsStale, build: buildConsole }, options.ifStale);
    await runStep({ name: 'storefront', stale: storefrontIsStale, build: buildStorefront }, options.ifStale);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build({ ifStale: process.argv.includes('--if-stale'), server: process.argv.includes('--server') }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
