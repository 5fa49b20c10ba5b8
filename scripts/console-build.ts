/**
 * Builds the admin console (packages/console) into packages/console/dist, which the service
 * serves at /admin. `--if-stale` (what `npm start` runs first) skips the build when the output is
 * newer than every source it comes from, so a restart costs nothing.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isStale, runIfMain } from './build-steps.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const consoleRoot = path.join(root, 'packages/console');
const output = path.join(consoleRoot, 'dist/index.html');
const sources = [
  path.join(consoleRoot, 'src'),
  path.join(consoleRoot, 'index.html'),
  path.join(consoleRoot, 'vite.config.ts'),
  path.join(consoleRoot, 'package.json'),
  path.join(root, 'packages/client/src'),
];

export const consoleIsStale = (): boolean => isStale(output, sources);

export async function buildConsole(): Promise<void> {
  // Always a production build, whatever NODE_ENV the caller runs with (`NODE_ENV=development npm start`
  // would otherwise ship React's development build to everyone who opens /admin).
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({ root: consoleRoot, configFile: path.join(consoleRoot, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  precompress(path.join(consoleRoot, 'dist/assets'));
}

/** Brotli and gzip copies beside each asset, compressed once at build time and served as they are. */
function precompress(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!/\.(js|css|svg)$/.test(name)) continue;
    const file = path.join(dir, name);
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
}

runIfMain(import.meta.url, { name: 'console', stale: consoleIsStale, build: buildConsole });
