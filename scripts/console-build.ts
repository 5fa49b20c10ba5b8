/**
 * Builds the admin console (packages/console) into packages/console/dist, which the service
 * serves at /admin. `--if-stale` (what `npm start` runs first) skips the build when the output is
 * newer than every source it comes from, so a restart costs nothing.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

function newest(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

export function consoleIsStale(): boolean {
  return !existsSync(output) || statSync(output).mtimeMs < Math.max(...sources.map(newest));
}

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

async function main(): Promise<void> {
  if (process.argv.includes('--if-stale') && !consoleIsStale()) return;
  const started = Date.now();
  try {
    await buildConsole();
  } catch (error) {
    // Without its build tools (a production install without dev dependencies), the API still starts;
    // /admin then answers 503 CONSOLE_NOT_BUILT until a build is shipped with the deploy.
    if (process.argv.includes('--if-stale') && (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      console.warn('console: vite is not installed, skipping the build (run `npm run build:console` where it is)');
      return;
    }
    throw error;
  }
  console.log(`console: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
