import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Workload folders: packages/driver-<engine>/src/<workload>/ and
 * server/src/workloads/<workload>/ (docs/adding-a-workload.md). A driver's
 * src/engine/ owns what every workload needs (connecting, admin sessions,
 * quoting, placeholders, SQL-file helpers, bulk format, loader) and imports
 * no workload folder; one workload folder never imports another's.
 */
const WORKLOADS = ['tprocc', 'tproch', 'chbench'];
const others = (w) => WORKLOADS.filter((x) => x !== w);

/** A relative import that reaches into one of `names`' folders (`../tprocc/x.js`, `../../tprocc`). */
function workloadFolders(names, message) {
  return { regex: `^\\.{1,2}/(.*/)?(${names.join('|')})(/|$)`, message };
}

/** The same, for dynamic import('...') (no-restricted-imports sees only static imports and re-exports). */
function dynamicWorkloadImports(names, message) {
  return { selector: `ImportExpression > Literal[value=/^\\.{1,2}\\/(.*\\/)?(${names.join('|')})(\\/|$)/]`, message };
}

/** What a driver package may not import at all: the server, the job store, another driver. */
const DRIVER_PACKAGES = {
  group: ['@sledge/server', '@sledge/jobstore', '@sledge/driver-postgresql', '@sledge/driver-sqlite', '@sledge/driver-mysql', '@sledge/driver-mssql', '@sledge/driver-oracle', '@sledge/driver-db2'],
  message: 'a driver imports no server, job store or other driver',
};

/** Worker threads never import the engine or the main thread's runner. */
const WORKER_IMPORTS = { group: ['**/engine/**', '**/runner/**'], message: 'a worker thread imports neither server/src/engine nor server/src/runner: what both need lives in server/src/shared/' };

/**
 * The folder rules as config blocks, one per folder `w` of `folders`:
 * `restricted(w)` names the workload folders its files may not import,
 * `message(w, names)` says why; `extra` are the patterns every file of those
 * globs has besides (flat config keeps one no-restricted-imports setting per
 * file, the last, so they are repeated here).
 */
function folderBlocks(globOf, folders, restricted, message, extra) {
  return folders.map((w) => {
    const names = restricted(w);
    const why = message(w, names);
    if (names.length === 0) return { files: globOf(w), rules: { 'no-restricted-imports': ['error', { patterns: extra }] } };
    return {
      files: globOf(w),
      rules: {
        'no-restricted-imports': ['error', { patterns: [...extra, workloadFolders(names, why)] }],
        'no-restricted-syntax': ['error', dynamicWorkloadImports(names, why)],
      },
    };
  });
}

const driverFolderMessage = (w, names) =>
  w === 'engine'
    ? 'a driver\'s src/engine/ imports no workload folder: move what it needs into src/engine/ (docs/adding-an-engine.md)'
    : `a driver's workload folder imports no other workload's folder (${w} -> ${names.join(', ')}): move what both need into src/engine/ (docs/adding-an-engine.md)`;

const serverFolderMessage = (w, names) =>
  `a server workload folder imports no other workload's folder (${w} -> ${names.join(', ')}): move what both need into generic server code (docs/adding-a-workload.md)`;

const uiFolderMessage = (w, names) =>
  `a dashboard workload folder imports no other workload's folder (${w} -> ${names.join(', ')}): move what both need into ui/src/workloads/ or ui/src/components/ (docs/adding-a-workload.md)`;

/** The dashboard's workload folders: chbench/ draws with tprocc/ and tproch/; neither of those imports chbench/ or each other. */
const uiRestricted = (w) => (w === 'chbench' ? [] : others(w));

/** What the dashboard and the agent may not import: they speak protocol only. */
const UI_PACKAGES = { group: ['@sledge/core', '@sledge/sql', '@sledge/driver-*', '@sledge/jobstore', '@sledge/server'], message: 'the dashboard and the agent import @sledge/protocol only' };

/** The server's (and core's) workload folders: CH-benCHmark builds on TPROC-C, one way (docs/adding-a-workload.md), so chbench/ may import tprocc/. */
const serverRestricted = (w) => (w === 'chbench' ? ['tproch'] : others(w));

/** What packages/core may not import: no package above it, no I/O. */
const CORE_PACKAGES = { group: ['@sledge/sql', '@sledge/driver-*', '@sledge/jobstore', '@sledge/server'], message: 'packages/core imports no package above it (protocol <- core <- sql <- driver-* <- server)' };
const CORE_PATHS = ['node:fs', 'node:net', 'node:worker_threads', 'node:child_process', 'fs', 'net', 'worker_threads', 'child_process'];

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
    rules: { 'no-restricted-imports': ['error', { patterns: [CORE_PACKAGES], paths: CORE_PATHS }] },
  },
  // core's workload folders: one never imports another's (what both need is in src/bulk/, src/shapes/, ...),
  // except that CH-benCHmark's generator builds on TPROC-C's data rules, one way.
  ...WORKLOADS.map((w) => {
    const names = serverRestricted(w);
    const why = `a core workload folder imports no other workload's folder (${w} -> ${names.join(', ')}): move what both need into a generic folder of packages/core/src (bulk/, shapes/)`;
    return {
      files: [`packages/core/src/${w}/**/*.ts`],
      rules: {
        'no-restricted-imports': ['error', { patterns: [CORE_PACKAGES, workloadFolders(names, why)], paths: CORE_PATHS }],
        'no-restricted-syntax': ['error', dynamicWorkloadImports(names, why)],
      },
    };
  }),
  {
    files: ['packages/sql/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@sledge/driver-*', '@sledge/jobstore', '@sledge/server'] }] },
  },
  {
    files: ['packages/driver-*/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [DRIVER_PACKAGES] }] },
  },
  // A driver's engine/ imports no workload folder; a workload folder imports no other workload's folder (tests included).
  ...folderBlocks((w) => [`packages/driver-*/src/${w}/**/*.ts`], ['engine', ...WORKLOADS], (w) => (w === 'engine' ? WORKLOADS : others(w)), driverFolderMessage, [DRIVER_PACKAGES]),
  {
    // The server: no function over 80 lines.
    files: ['server/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  // The server's workload folders: one never imports another's, except that CH-benCHmark builds on TPROC-C
  // (docs/adding-a-workload.md: it reuses TPROC-C's build, VU run and report, one way; TPROC-C never imports it).
  ...folderBlocks((w) => [`server/src/workloads/${w}/**/*.ts`], WORKLOADS, serverRestricted, serverFolderMessage, []),
  {
    // Worker threads never import the engine or the main thread's runner: what both need lives in server/src/shared/.
    files: ['server/src/worker/**/*.ts', 'server/src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [WORKER_IMPORTS] }] },
  },
  // The same for the workloads' worker-thread files, with their folder rule.
  ...folderBlocks((w) => [`server/src/workloads/${w}/*-worker.ts`, `server/src/workloads/${w}/native-vus.ts`], WORKLOADS, serverRestricted, serverFolderMessage, [WORKER_IMPORTS]),
  {
    files: ['ui/src/**/*.{ts,tsx}', 'apps/agent/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [UI_PACKAGES] }] },
  },
  // The dashboard's workload folders (ui/src/workloads/<id>/): one never imports another's, except that
  // CH-benCHmark's pages are TPROC-C's (its VUs) and TPROC-H's stream timeline (its analytic streams), one way.
  ...folderBlocks((w) => [`ui/src/workloads/${w}/**/*.{ts,tsx}`], WORKLOADS, uiRestricted, uiFolderMessage, [UI_PACKAGES]),
);
