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
    await build({ root: storefrontRoot, configFile: path.join(storefrontRoot, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
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
