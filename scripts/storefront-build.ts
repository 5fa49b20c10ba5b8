/**
 * Builds the storefront (packages/storefront, SvelteKit) into packages/storefront/build, which the
 * service mounts at `/` (build/mount) and which also runs on its own (`node packages/storefront/build`).
 * `--if-stale` (what `npm start` and the test runner use) skips the build when the output is newer than
 * every source it comes from, so a restart costs nothing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale, runIfMain } from './build-steps.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const storefrontRoot = path.join(root, 'packages/storefront');
const output = path.join(storefrontRoot, 'build/mount/manifest.js');
const sources = [
  path.join(storefrontRoot, 'src'),
  path.join(storefrontRoot, 'static'),
  path.join(storefrontRoot, 'svelte.config.js'),
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
  process.chdir(storefrontRoot);
  try {
    await build({ root: storefrontRoot, configFile: path.join(storefrontRoot, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    process.chdir(cwd);
  }
}

runIfMain(import.meta.url, { name: 'storefront', stale: storefrontIsStale, build: buildStorefront });
