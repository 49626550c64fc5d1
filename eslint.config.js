import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/build/**', '**/node_modules/**', 'data/**', 'e2e/screenshots/**', 'ui/dist/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', performance: 'readonly', SharedArrayBuffer: 'readonly', Atomics: 'readonly', structuredClone: 'readonly', fetch: 'readonly', window: 'readonly', document: 'readonly', WebSocket: 'readonly', localStorage: 'readonly', navigator: 'readonly', setImmediate: 'readonly', queueMicrotask: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // Imports flow one way: protocol <- core <- sql <- driver-* <- server; ui and apps import protocol only.
    files: ['packages/protocol/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@sledge/*'] }] },
  },
  {
    // The Tcl interpreter is a leaf: no Sledge package (apps/cli's HammerDB runner and the server's HammerDB API, for tclQuote and set-line parsing, depend on it).
    files: ['packages/tcl/src/**/*.ts', 'packages/tcl/test/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@sledge/*'] }] },
  },
  {
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: ['@sledge/sql', '@sledge/driver-*', '@sledge/jobstore', '@sledge/server'],
          paths: ['node:fs', 'node:net', 'node:worker_threads', 'node:child_process', 'fs', 'net', 'worker_threads', 'child_process'],
        },
      ],
    },
  },
  {
    files: ['packages/sql/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@sledge/driver-*', '@sledge/jobstore', '@sledge/server'] }] },
  },
  {
    files: ['packages/driver-*/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@sledge/server', '@sledge/jobstore', '@sledge/driver-postgresql', '@sledge/driver-sqlite', '@sledge/driver-mysql', '@sledge/driver-mssql', '@sledge/driver-oracle', '@sledge/driver-db2'] }] },
  },
  {
    // The server: no function over 80 lines.
    files: ['server/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // Worker threads never import the engine or the main thread's runner: what both need lives in server/src/shared/.
    files: ['server/src/worker/**/*.ts', 'server/src/shared/**/*.ts', 'server/src/workloads/*/*-worker.ts', 'server/src/workloads/*/native-vus.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/engine/**', '**/runner/**'] }] },
  },
  {
    files: ['ui/src/**/*.{ts,tsx}', 'apps/agent/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@sledge/core', '@sledge/sql', '@sledge/driver-*', '@sledge/jobstore', '@sledge/server'] }] },
  },
);
