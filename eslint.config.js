import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Patterns src/ may not use, each with where it is allowed:
 * - `new AppError(...)`: each error code has one factory in src/lib/errors.ts, which takes the status from the code.
 * - `new Date()` and `Date.now()`: every time read in request and worker paths goes through the injected Clock
 *   (src/lib/clock.ts), so tests can move time. Process-level code (start-up waits, shutdown timing) reads the
 *   wall clock itself.
 */
const APP_ERROR = { selector: "NewExpression[callee.name='AppError']", message: "Use the code's factory in src/lib/errors.ts (its status comes from the code)" };
const NOW = [
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Read the time from the injected Clock (src/lib/clock.ts)' },
  { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Read the time from the injected Clock (src/lib/clock.ts)' },
];
const CLOCK_EXEMPT = ['src/lib/clock.ts', 'src/lib/shutdown.ts', 'src/main.ts', 'src/db/connect.ts', 'src/db/embedded-keeper.ts'];
// TODO(catalog owner): src/catalog still calls new Date() (admin-service, categories-service); give it the Clock and drop this.
const CLOCK_PENDING = ['src/catalog/**'];
function restrictedSyntax() {
  const rule = (...patterns) => ({ 'no-restricted-syntax': ['error', ...patterns] });
  return [
    { files: ['src/**/*.ts'], rules: rule(APP_ERROR, ...NOW) },
    { files: ['src/lib/errors.ts'], rules: rule(...NOW) },
    { files: [...CLOCK_EXEMPT, ...CLOCK_PENDING], rules: rule(APP_ERROR) },
  ];
}

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '.data/', 'bench/results/', 'packages/client/src/generated/', 'test-results/'] },
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
  ...restrictedSyntax(),
  {
    // The console: the rules of hooks, checked (a conditional hook is a bug that only shows at run time).
    files: ['packages/console/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/config.ts', 'scripts/**', 'test/**', 'bench/**', 'packages/console/vite.config.ts', 'packages/*/test/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Tests read JSON response bodies whose shape is what they assert; the bench drives autocannon internals.
    files: ['test/**', 'bench/**', 'packages/*/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
