import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
  {
    // Each error code has one factory in src/lib/errors.ts, which takes the status from the code.
    files: ['src/**/*.ts'],
    ignores: ['src/lib/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='AppError']", message: "Use the code's factory in src/lib/errors.ts (its status comes from the code)" },
      ],
    },
  },
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
