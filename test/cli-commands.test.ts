import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { login } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * The operator's commands run compiled, as the service does: a production install has no tsx and
 * no TypeScript, so nothing `npm start`, `npm run worker`, `db:migrate`, `seed` or `admin:create`
 * runs may need them.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};
const PRODUCTION_COMMANDS = ['start', 'worker', 'db:migrate', 'seed', 'admin:create'];

describe('the compiled commands', () => {
  const t = useApp();

  test('neither the production dependencies nor the commands an operator runs (and their pre-steps) need tsx', () => {
    assert.equal(pkg.dependencies.tsx, undefined, 'tsx is a development dependency');
    for (const name of PRODUCTION_COMMANDS) {
      for (const script of [pkg.scripts[name], pkg.scripts[`pre${name}`]]) {
        if (script === undefined) continue;
        assert.doesNotMatch(script, /\btsx\b/, `npm run ${name}: ${script}`);
        assert.match(script, /^(exec )?node /, `npm run ${name} runs node: ${script}`);
      }
    }
  });

  test('`npm run admin:create` makes an administrator who signs in', async () => {
    const email = `cli-admin-${Date.now()}@example.test`;
    const password = 'Cli-Admin-Pass-1';
    const { stdout } = await run('npm', ['run', 'admin:create', '--silent', '--', '--email', email, '--role', 'ADMIN'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl!, ADMIN_PASSWORD: password, LOG_LEVEL: 'warn' },
      timeout: 120_000,
    });
    assert.match(stdout, new RegExp(`ADMIN ${email.replace(/[.]/g, '\\.')} \\(usr_`));
    const session = await login(t, email, password);
    assert.equal(session.status, 200);
  });

  test("`npm run admin:create` holds names and the email to the API's rules, and writes nothing it refuses", async () => {
    const email = `cli-refused-${Date.now()}@example.test`;
    for (const [args, said] of [
      [['--email', email, '--first-name', 'abc\u202Etxt'], /--first-name must not contain/],
      [['--email', email, '--last-name', 'L'.repeat(101)], /--last-name must NOT have more than 100 characters/],
      [['--email', `cli\u200Bzero-${Date.now()}@example.test`], /--email /],
    ] as const) {
      await assert.rejects(
        run('npm', ['run', 'admin:create', '--silent', '--', '--role', 'ADMIN', ...args], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: t.config.databaseUrl!, ADMIN_PASSWORD: 'Cli-Admin-Pass-1', LOG_LEVEL: 'warn' },
          timeout: 120_000,
        }),
        (error: { code: number; stderr: string }) => {
          assert.equal(error.code, 2, error.stderr);
          assert.match(error.stderr, said);
          return true;
        },
      );
    }
    const written = await t.db.selectFrom('users').select('id').where('email', 'like', 'cli-refused-%').execute();
    assert.deepEqual(written, []);
  });

  test('`npm run seed` where sharp cannot load says so and changes nothing', async () => {
    // sharp made unresolvable for this run only, as on a platform it ships no binary for.
    const hooks = mkdtempSync(path.join(tmpdir(), 'commerce-no-sharp-'));
    writeFileSync(
      path.join(hooks, 'hook.mjs'),
      `export async function resolve(specifier, context, next) {
        if (specifier === 'sharp') throw Object.assign(new Error("Cannot find package 'sharp'"), { code: 'ERR_MODULE_NOT_FOUND' });
        return next(specifier, context);
      }`,
    );
    writeFileSync(
      path.join(hooks, 'register.mjs'),
      `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(path.join(hooks, 'hook.mjs')).href)});`,
    );
    const withoutSharp = path.join(hooks, 'register.mjs');
    const before = await t.db
      .selectFrom('categories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await assert.rejects(
      run('npm', ['run', 'seed', '--silent'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: t.config.databaseUrl!, LOG_LEVEL: 'warn', NODE_OPTIONS: `--import=${withoutSharp}` },
        timeout: 120_000,
      }),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1, error.stderr);
        assert.match(error.stderr, /npm run seed draws the demo pictures with sharp, which cannot be loaded here/);
        assert.match(error.stderr, /Nothing was changed\./);
        return true;
      },
    );
    const after = await t.db
      .selectFrom('categories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n));
    assert.equal(await t.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.store').executeTakeFirst(), undefined);
    rmSync(hooks, { recursive: true, force: true });
  });

  test('without its build tools (a production install), the pre-step uses the shipped build, or says how to make one', async () => {
    // The pre-step copied where no node_modules can be found: as on a server installed with --omit=dev.
    const deploy = mkdtempSync(path.join(tmpdir(), 'commerce-deploy-'));
    try {
      mkdirSync(path.join(deploy, 'scripts'));
      cpSync(path.join(ROOT, 'scripts', 'build-if-stale.mjs'), path.join(deploy, 'scripts', 'build-if-stale.mjs'));
      const step = () => run(process.execPath, [path.join(deploy, 'scripts', 'build-if-stale.mjs')], { cwd: deploy });

      await assert.rejects(step(), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /run `npm run build` where they are/);
        return true;
      });

      mkdirSync(path.join(deploy, 'dist', 'src'), { recursive: true });
      writeFileSync(path.join(deploy, 'dist', 'src', 'main.js'), '');
      const { stderr } = await step();
      assert.equal(stderr, '');
    } finally {
      rmSync(deploy, { recursive: true, force: true });
    }
  });
});
