/* global process, console */
/**
 * What `npm start`, `npm run worker` and the compiled commands (db:migrate, seed, admin:create)
 * run first: the build of what is stale (scripts/build.ts), in plain JavaScript so that a
 * production install, which has neither tsx nor TypeScript, can run it. There the build shipped
 * with the deploy is used as it is; without one the command cannot run and says so.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverOnly = process.argv.includes('--server');

let tsx;
try {
  tsx = await import('tsx/esm/api');
} catch {
  tsx = null;
}

if (tsx) {
  tsx.register();
  const { build } = await import('./build.ts');
  await build({ ifStale: true, server: serverOnly }).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else if (!existsSync(path.join(root, 'dist', 'src', 'main.js'))) {
  console.error(
    'The service is not built and its build tools are not installed: run `npm run build` where they are (a full `npm install`) and ship dist/',
  );
  process.exit(1);
}
