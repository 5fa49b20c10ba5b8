import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '.data/', 'bench/results/', 'packages/client/src/generated/'] },
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
    files: ['src/config.ts', 'scripts/**', 'test/**', 'bench/**', 'packages/*/test/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Tests read JSON response bodies whose shape is what they assert; the bench drives autocannon internals.
    files: ['test/**', 'bench/**', 'packages/*/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
