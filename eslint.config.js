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
    // A test's "now" is its clock's (test/helpers/clock.ts), never the machine's, and no date is read or
    // built in the machine's time zone: a test must pass on any day, at any hour, in any zone. Durations
    // are measured with performance.now().
    files: ['test/**/*.ts', 'src/**/*.test.ts', 'bench/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/clock.js'], importNames: ['systemClock'], message: "A test's now is its clock's (test/helpers/clock.ts), never the machine's." }] },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: "A test's now is its clock's (test/helpers/clock.ts); measure durations with performance.now()." },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "A test's now is its clock's (test/helpers/clock.ts), never the machine's." },
        { selector: "NewExpression[callee.name='Date'][arguments.length>1]", message: 'new Date(y, m, d…) is in the machine\'s time zone: use Date.UTC or an ISO instant with Z.' },
        {
          selector: "NewExpression[callee.name='Date'] > Literal[value=/^\\d{4}-\\d{2}-\\d{2}T[^Z+]*$/]",
          message: "A date-time without Z or an offset is read in the machine's time zone: write the instant's Z or offset.",
        },
        {
          selector: "CallExpression[callee.property.name=/^(get|set)(FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds)$|^getTimezoneOffset$|^to(Locale)?(Date|Time)String$/]",
          message: "This reads or writes a date in the machine's time zone: use the UTC methods, or format in a named zone.",
        },
      ],
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
            { regex: '/src/(?!(core/semantic/filter-operators|core/semantic/units|content/visualization-types|surfaces/web/client-routes)(\\.js)?$)', message: 'The console bundles no server code but the shared lists.' },
            { group: ['fastify', 'node:*'] },
          ],
        },
      ],
    },
  },
);
