import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import boundaries from 'eslint-plugin-boundaries';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The folders of src/ in layers, lowest first. A folder may import only
 * folders in layers below its own, so dependencies flow one way and no
 * import cycle between folders can form: an import up or across a layer
 * fails lint. A new folder goes into a layer here (an unlisted one fails
 * too); a folder that needs one of its own layer moves up a layer.
 * `config` is src/config.ts; `entry` is the other files at the top of src/
 * (app.ts wiring, main.ts, worker.ts, openapi-document.ts).
 */
const LAYERS = [
  ['config'],
  ['lib'],
  ['db'],
  // The owners of tables every feature writes through.
  ['audit', 'outbox', 'identity', 'idempotency', 'rate-limits', 'events'],
  // The access guard every route uses, sign-in and recovery; the HTTP caching every public read uses.
  ['auth', 'http-cache'],
  // Invitations to the staff, below the accounts' administration: a SUPER_ADMIN's demotion ends the ones they sent.
  ['staff-invitations'],
  ['media', 'inventory'],
  ['catalog'],
  [
    'addresses',
    'cart',
    'coupons',
    'users',
    'admin-users',
    'expenses',
    'reviews',
    'webhooks',
    'analytics',
    'email',
    'housekeeping',
    'metrics',
    'health',
    'console',
    'storefront',
    'openapi',
    'settings',
  ],
  ['orders'],
  // Reads that span the domains above through their owners' own services.
  ['admin-search'],
  ['entry'],
];

const FOLDERS = LAYERS.flat().filter((name) => name !== 'config' && name !== 'entry');

const layering = {
  files: ['src/**/*.ts'],
  plugins: { boundaries },
  settings: {
    // Each folder is an element; the files at the top of src/ are classified as files.
    'boundaries/elements': FOLDERS.map((name) => ({ type: name, pattern: `src/${name}` })),
    'boundaries/files': [
      { category: 'config', pattern: 'src/config.ts' },
      { category: 'entry', pattern: 'src/*.ts' },
    ],
    // The .js specifiers of TypeScript's ESM imports resolved to their .ts files.
    'import/resolver': { typescript: { project: './tsconfig.json' } },
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        policies: [
          { allow: { to: { module: { origin: ['external', 'core'] } } } },
          // Everything may read the configuration's types and parser; the entry points may import anything.
          { allow: { to: { file: { categories: 'config' } } } },
          { from: { file: { categories: 'entry' } }, allow: { to: { element: { type: FOLDERS } } } },
          { from: { file: { categories: 'entry' } }, allow: { to: { file: { categories: 'entry' } } } },
          ...LAYERS.flatMap((layer, i) =>
            layer.map((type) => ({
              from: { element: { type } },
              allow: { to: { element: { type: [type, ...LAYERS.slice(0, i).flat()] } } },
            })),
          ),
        ],
      },
    ],
    'boundaries/no-unknown-files': 'error',
  },
};

/**
 * Patterns src/ may not use, each with where it is allowed:
 * - `new AppError(...)`: each error code has one factory in src/lib/errors.ts, which takes the status from the code.
 * - `new Date()` and `Date.now()`: every time read in request and worker paths goes through the injected Clock
 *   (src/lib/clock.ts), so tests can move time. Process-level code (start-up waits, shutdown timing) reads the
 *   wall clock itself.
 * - SQL (Kysely's selectFrom/insertInto/updateTable/deleteFrom, the sql`...` tag): only in repositories
 *   (`repository.ts`, `*-repository.ts`), src/db and the shared fragments of src/lib/sql.ts. Services and routes
 *   call repository functions.
 */
const APP_ERROR = {
  selector: "NewExpression[callee.name='AppError']",
  message: "Use the code's factory in src/lib/errors.ts (its status comes from the code)",
};
const NOW = [
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'Read the time from the injected Clock (src/lib/clock.ts)',
  },
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: 'Read the time from the injected Clock (src/lib/clock.ts)',
  },
];
const SQL = [
  {
    selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|mergeInto)$/]',
    message: "SQL lives in the owning module's repository (repository.ts, *-repository.ts)",
  },
  {
    selector: "TaggedTemplateExpression[tag.name='sql']",
    message: "SQL lives in the owning module's repository (repository.ts, *-repository.ts)",
  },
];
const SQL_HOMES = ['src/**/repository.ts', 'src/**/*-repository.ts', 'src/db/**', 'src/lib/sql.ts'];
const CLOCK_EXEMPT = ['src/lib/clock.ts', 'src/lib/shutdown.ts', 'src/main.ts'];
const CLOCK_EXEMPT_DB = ['src/db/connect.ts', 'src/db/embedded-keeper.ts'];
function restrictedSyntax() {
  const rule = (...patterns) => ({ 'no-restricted-syntax': ['error', ...patterns] });
  // For overlapping globs the last entry wins.
  return [
    { files: ['src/**/*.ts'], rules: rule(APP_ERROR, ...NOW, ...SQL) },
    { files: SQL_HOMES, rules: rule(APP_ERROR, ...NOW) },
    { files: ['src/lib/errors.ts'], rules: rule(...NOW, ...SQL) },
    { files: CLOCK_EXEMPT, rules: rule(APP_ERROR, ...SQL) },
    { files: CLOCK_EXEMPT_DB, rules: rule(APP_ERROR) },
  ];
}

/**
 * The console's imports go one way (packages/console/README.md): the app (main.tsx, router.tsx,
 * routes/) wires the features; a feature (features/<name>/) imports shared code and its own files,
 * never another feature or a route; shared code (api/, components/, lib/, the other files at the top)
 * imports only shared code. No import cycle, static or dynamic (a route's lazy screen counts), within
 * a layer or across.
 */
function consoleLayering() {
  const src = 'packages/console/src';
  const restricted = (regex, message) => ({ 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] });
  return [
    {
      files: [`${src}/**/*.{ts,tsx}`],
      plugins: { 'import-x': importX },
      settings: {
        // The cycle check follows TypeScript's imports: it parses .ts and .tsx files and resolves as tsc does.
        'import-x/extensions': ['.ts', '.tsx'],
        'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
        'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${src}/../tsconfig.json` })],
      },
      rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
    },
    {
      files: [`${src}/features/*/*.{ts,tsx}`],
      rules: restricted(
        String.raw`^\.\./(?!\.\./(api|components|lib)/)`,
        'A feature imports shared code (api/, components/, lib/) and its own files: not another feature, nor a route',
      ),
    },
    {
      files: [`${src}/{api,components,lib}/**/*.{ts,tsx}`],
      rules: restricted(String.raw`^\.\./(features|routes|router|main)\b`, 'Shared code imports shared code only'),
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '.data/',
      'bench/results/',
      'packages/client/src/generated/',
      'test-results/',
      'packages/storefront/build',
      'packages/storefront/build/**',
      'packages/storefront/build-releases/',
      'packages/storefront/.svelte-kit/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Config is parsed once in src/config.ts; nothing else may read the environment.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration from src/config.ts' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Type-aware: a promise nobody awaits loses its error (an unhandled rejection takes the process down), and one
    // handed to a callback that ignores it runs unchecked. node:test's test/describe/hooks return promises by design.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  ...restrictedSyntax(),
  layering,
  {
    // The console: the rules of hooks, checked (a conditional hook is a bug that only shows at run time).
    files: ['packages/console/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  ...consoleLayering(),
  {
    // The client's examples are a consumer's code (a script, a Next.js page), not the service's: they read their own environment.
    files: [
      'src/config.ts',
      'scripts/**',
      'test/**',
      'bench/**',
      'packages/console/vite.config.ts',
      'packages/storefront/svelte.config.js',
      'packages/storefront/serving.js',
      'packages/*/test/**',
      'packages/client/examples/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Read by Node at build time: the build script names the release directory it writes to.
    files: ['packages/storefront/svelte.config.js', 'packages/storefront/serving.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // Tests read JSON response bodies whose shape is what they assert; the bench drives autocannon internals.
    files: ['test/**', 'bench/**', 'packages/*/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
