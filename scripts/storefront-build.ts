/**
 * Builds the storefront (packages/storefront, SvelteKit) into a release of its own and points
 * packages/storefront/build at it once it is whole (storefront-releases.ts). The service mounts it at
 * `/` (build/mount) and it also runs on its own (`node packages/storefront/build`). `--if-stale` (what
 * `npm start` and the test runner use) skips the build when the output is newer than every source it
 * comes from, so a restart costs nothing.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale, runIfMain } from './build-steps.js';
import { newRelease, publishRelease, type Releases } from './storefront-releases.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const storefrontRoot = path.join(root, 'packages/storefront');
const releases: Releases = { dir: path.join(storefrontRoot, 'build-releases'), link: path.join(storefrontRoot, 'build') };
const output = path.join(releases.link, 'mount/manifest.js');
const sources = [
  path.join(storefrontRoot, 'src'),
  path.join(storefrontRoot, 'static'),
  path.join(storefrontRoot, 'svelte.config.js'),
  path.join(storefrontRoot, 'serving.js'),
  path.join(storefrontRoot, 'vite.config.ts'),
  path.join(storefrontRoot, 'package.json'),
  path.join(root, 'packages/client/src'),
];

export const storefrontIsStale = (): boolean => isStale(output, sources);

/**
 * Lines the build tools print that are advice for another project or read as faults here: SvelteKit's
 * "Run npm run preview" (this project has no such script: `npm start` serves the build), and the
 * adapter's Rollup noting that the public environment module is empty (the shop reads no public
 * environment variables). They print to the console, not through a logger the build could be told about.
 */
const NOISE = [/npm run preview/, /Generated an empty chunk: "env\.js"/];

async function withoutNoise<T>(work: () => Promise<T>): Promise<T> {
  const { log, warn } = console;
  const filtered =
    (write: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      if (!NOISE.some((line) => line.test(args.map(String).join(' ')))) write(...args);
    };
  console.log = filtered(log);
  console.warn = filtered(warn);
  try {
    return await work();
  } finally {
    console.log = log;
    console.warn = warn;
  }
}

export async function buildStorefront(): Promise<void> {
  // Always a production build, whatever NODE_ENV the caller runs with.
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  // SvelteKit's plugin reads svelte.config.js from the working directory.
  const cwd = process.cwd();
  const release = newRelease(releases);
  // svelte.config.js writes the build where this names (relative to the storefront's root).
  process.env.STOREFRONT_BUILD_OUT = path.relative(storefrontRoot, release);
  process.chdir(storefrontRoot);
  try {
    await withoutNoise(() =>
      build({ root: storefrontRoot, configFile: path.join(storefrontRoot, 'vite.config.ts'), logLevel: 'warn', mode: 'production' }),
    );
  } catch (error) {
    rmSync(release, { recursive: true, force: true });
    throw error;
  } finally {
    process.chdir(cwd);
    delete process.env.STOREFRONT_BUILD_OUT;
  }
  publishRelease(releases, release);
}

runIfMain(import.meta.url, { name: 'storefront', stale: storefrontIsStale, build: buildStorefront });
