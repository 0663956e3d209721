import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'web/dist/', 'node_modules/', '.data/', 'coverage/', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The core stays framework-free: no HTTP framework and no logger inside it.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['fastify', 'pino', 'fastify-plugin'], patterns: ['@fastify/*', '../http/*', '../surfaces/*'] }],
    },
  },
  {
    // The browser console: DOM globals, and nothing from the server but the shared lists (the page paths,
    // the filter operators, the chart types: plain data, so the console offers exactly what the server
    // accepts).
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '/src/(?!core/semantic/filter-operators$|content/visualization-types$|surfaces/web/client-routes$)', message: 'The console bundles no server code but the shared lists.' },
            { group: ['fastify', 'node:*'] },
          ],
        },
      ],
    },
  },
);
