import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestApp } from '../../../test/helpers/app.js';
import { PASSWORD, signInAs } from '../../../test/helpers/factories.js';
import { staffClient } from './helpers.js';

/**
 * The package as a consumer gets it: `npm pack` builds and packs it, the
 * tarball is installed into an empty project elsewhere (offline, beside
 * tarballs of its dependencies packed from the repository's node_modules: a
 * fresh `npm ci` leaves no registry metadata in the cache to resolve them by),
 * then plain Node imports it and talks to the real service, the repository's
 * tsc type-checks the README's examples against its declarations, and the
 * README's Node script runs against the service.
 */
const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('../', import.meta.url));
const require = createRequire(import.meta.url);
// TypeScript 7's compiler (its package exports no path to the bin, so from its folder).
const tsc = path.join(path.dirname(require.resolve('@typescript/native/package.json')), 'bin', 'tsc');
const tsxLoader = import.meta.resolve('tsx/esm');

const scratch = mkdtempSync(path.join(tmpdir(), 'commerce-client-pack-'));
// npm's own variables from an enclosing `npm test` (the workspace, the package being run) must not steer the child npm,
// and its cache starts empty, so the install proves it needs nothing but the tarballs, whatever this machine has cached.
const npmEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_'))),
  npm_config_cache: path.join(scratch, 'npm-cache'),
};

/** Where Node would find `name` for a package installed at `dir`: its own node_modules, then each one above. */
function installedFolder(dir: string, name: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(at) === at) throw new Error(`${name} is not installed for ${dir}`);
  }
}

/** The installed folders of a package's dependencies, and theirs, as the repository's install resolved them. */
function runtimeDependencies(dir: string, found = new Set<string>()): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const installed = installedFolder(dir, name);
    if (found.has(installed)) continue;
    found.add(installed);
    runtimeDependencies(installed, found);
  }
  return [...found];
}

const t = await startTestApp();
after(async () => {
  await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

test(
  'npm pack makes a package that installs elsewhere, imports in plain Node, type-checks, and runs the README script',
  { timeout: 120_000 },
  async () => {
    // Pack a copy of the package (so that a run beside this one never meets a half-built dist/), with the repository's
    // node_modules for the build: prepack builds dist/, and only dist/ ships (with package.json and README.md).
    const copy = path.join(scratch, 'client');
    cpSync(packageDir, copy, { recursive: true, filter: (from) => !/[\\/](dist|node_modules)$/.test(from) });
    symlinkSync(path.join(packageDir, '../../node_modules'), path.join(copy, 'node_modules'), 'dir');
    const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: copy, env: npmEnv });
    const [manifest] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const files = manifest!.files.map((f) => f.path).sort();
    assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), files.join(', '));
    assert.deepEqual(
      files.filter((file) => !file.startsWith('dist/')),
      ['README.md', 'package.json'],
    );
    assert.deepEqual(
      files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')),
      [],
      'no TypeScript source',
    );

    // Install the tarball into an empty project, offline, with its dependencies' tarballs.
    const dependencies = path.join(scratch, 'dependencies');
    mkdirSync(dependencies);
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dependencies, ...runtimeDependencies(packageDir)], { env: npmEnv });
    const consumer = path.join(scratch, 'consumer');
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const tarballs = [path.join(scratch, manifest!.filename), ...readdirSync(dependencies).map((file) => path.join(dependencies, file))];
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], { cwd: consumer, env: npmEnv });

    // Plain Node: the compiled ESM, against the real service (a read, then a write with the CSRF dance).
    writeFileSync(
      path.join(consumer, 'smoke.mjs'),
      `import { createCommerceClient, createCookieJar, ApiError, NetworkError, ResponseError } from '@commerce/client';
const shop = createCommerceClient({ baseUrl: process.argv[2], cookies: createCookieJar() });
const { meta } = await shop.products.list({ limit: 1 });
await shop.auth.register({ email: 'packed-' + Date.now() + '@example.com', password: process.argv[3], first_name: 'P', last_name: 'K' });
const refused = await shop.orders.get('ord_nope').catch((error) => error);
console.log(JSON.stringify({ total: meta.total, signedIn: (await shop.auth.session()).authenticated, refused: ApiError.is(refused, 'NOT_FOUND'), classes: [NetworkError, ResponseError].map((c) => c.name) }));
`,
    );
    const smoke = await run(process.execPath, ['smoke.mjs', t.baseUrl, PASSWORD], { cwd: consumer });
    assert.deepEqual(JSON.parse(smoke.stdout), { total: 0, signedIn: true, refused: true, classes: ['NetworkError', 'ResponseError'] });

    // The README's examples (but the Next.js one, which needs React and Next) against the package's declarations, strict.
    for (const name of readdirSync(path.join(packageDir, 'examples')).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))) {
      copyFileSync(path.join(packageDir, 'examples', name), path.join(consumer, name));
    }
    writeFileSync(
      path.join(consumer, 'misspelt.ts'),
      `import { createCommerceClient } from '@commerce/client';
const admin = createCommerceClient({ baseUrl: '' });
// @ts-expect-error the movement's note is \`reason\`
await admin.PATCH('/api/v1/admin/inventory/{variant_public_id}', { params: { path: { variant_public_id: 'var_1' } }, body: { quantity_change: 1, note: 'x' } });
`,
    );
    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          typeRoots: [path.join(packageDir, '../../node_modules/@types')],
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          skipLibCheck: false,
        },
        include: ['*.ts'],
      }),
    );
    const typecheck = await run(process.execPath, [tsc, '-p', consumer]).catch((error: { stdout: string }) => error);
    assert.equal(typecheck.stdout, '', 'the examples compile against the packed declarations');

    // The README's Node script, run against the service as an administrator: restock what is low.
    const admin = await staffClient(t);
    const { data: product } = await admin.POST('/api/v1/admin/products', { body: { name: 'Kettle', status: 'ACTIVE' } });
    const { data: variant } = await admin.POST('/api/v1/admin/products/{product_public_id}/variants', {
      params: { path: { product_public_id: product.public_id } },
      body: { sku: 'KETTLE-1', name: 'Kettle', price: '40.00' },
    });
    await admin.POST('/api/v1/admin/inventory', { body: { variant_public_id: variant.public_id, quantity_on_hand: 2, reorder_level: 5 } });
    const { email } = await signInAs(t, 'SUPER_ADMIN');
    const script = await run(process.execPath, ['--import', tsxLoader, 'node-script.ts'], {
      cwd: consumer,
      env: { ...process.env, COMMERCE_API_URL: t.baseUrl, ADMIN_EMAIL: email, ADMIN_PASSWORD: PASSWORD },
    });
    assert.equal(script.stdout, 'KETTLE-1: 2 -> 52\nnet profit this year: 0.00\n');
  },
);
