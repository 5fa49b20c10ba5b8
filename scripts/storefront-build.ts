/**
 * Builds the storefront (packages/storefront, SvelteKit) into packages/storefront/build, which the
 * service mounts at `/` (build/mount) and which also runs on its own (`node packages/storefront/build`).
 * `--if-stale` (what `npm start` and the test runner use) skips the build when the output is newer than
 * every source it comes from, so a restart costs nothing.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

function newest(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

export function storefrontIsStale(): boolean {
  return !existsSync(output) || statSync(output).mtimeMs < Math.max(...sources.map(newest));
}

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

async function main(): Promise<void> {
  if (process.argv.includes('--if-stale') && !storefrontIsStale()) return;
  const started = Date.now();
  try {
    await buildStorefront();
  } catch (error) {
    // Without its build tools (a production install without dev dependencies), the API still starts;
    // shop pages then answer 503 STOREFRONT_NOT_BUILT until a build is shipped with the deploy.
    if (process.argv.includes('--if-stale') && (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      console.warn('storefront: vite is not installed, skipping the build (run `npm run build:storefront` where it is)');
      return;
    }
    throw error;
  }
  console.log(`storefront: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
