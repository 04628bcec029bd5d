// The linter (`npm run lint`, run by `make test`): typescript-eslint's recommended rules on both
// workspaces' sources and tests and on the scripts. Import boundaries and cycles are
// dependency-cruiser's (.dependency-cruiser.cjs), also part of `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'orchestrator/vendor/**',
      'orchestrator/gradle-plugin/**',
      'orchestrator/jvm-runner/target/**',
      'gradle-plugin/**',
      'verdict-api/migrations/**',
      'verdict-api/queries/**',
      'test-artifacts/**',
      'examples/**',
      // Compiled from scripts/*.ts by `tsc -p scripts`.
      'scripts/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', performance: 'readonly', fetch: 'readonly', Response: 'readonly', Request: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly' } },
    rules: {
      // `_`-prefixed bindings are deliberately unused (a destructured field left out, a callback's first argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' }],
      // Control characters are matched on purpose: hostile test text is escaped for the terminal
      // (report/rich-text.ts), and broken JUnit XML is refused by them.
      'no-control-regex': 'off',
    },
  },
  {
    // CommonJS configuration files (dependency-cruiser's).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Integration tests read JSON bodies of the API as loose data.
    files: ['**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
