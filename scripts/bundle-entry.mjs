#!/usr/bin/env node
/**
 * Rewrites a package's dist/index.js (tsc's output) as one ES module: the
 * package's own files inlined, every other package left as an import, except
 * those named with --inline (protocol inlines typebox).
 *
 * Why: every worker thread imports the packages afresh (worker_threads share
 * no module instances), and Node's ES module loader pays per file. Importing
 * @sledge/core with @sledge/protocol and typebox as ~750 files cost ~280 ms of
 * CPU per thread, as two files ~30 ms (`pnpm bench startup` measures each
 * package against tsc's per-file entry, which stays as dist/index.files.js).
 * A build starts three threads on a two-core machine where that CPU is the
 * database's.
 *
 * The package's other dist files stay (the .d.ts files and index.files.js
 * refer to them); nothing imports them at run time, since the bundled
 * packages export only "." (driver-postgresql's "./testing" imports only pg).
 * Paths that the code derives from import.meta.url ('..' from dist/) are the
 * same from dist/index.js as from any other file in dist/.
 *
 * Usage, in the package folder after tsc: node ../../scripts/bundle-entry.mjs [--inline typebox]
 */
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--inline');
const inline = new Set(at >= 0 ? args[at + 1].split(',') : []);
const entry = resolve('dist/index.js');
if (!existsSync(entry)) {
  console.error(`bundle-entry: ${entry} is missing: run tsc first`);
  process.exit(1);
}

// tsc's own entry stays beside it as dist/index.files.js (same folder, so its relative imports still
// resolve): `pnpm bench startup` imports both to measure what the bundling saves.
writeFileSync(resolve('dist/index.files.js'), readFileSync(entry, 'utf8').replace(/^\/\/# sourceMappingURL=.*$/m, ''));

/** The package name of a bare specifier: 'typebox/value' -> 'typebox', '@scope/x/y' -> '@scope/x'. */
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

await build({
  entryPoints: [entry],
  outfile: entry,
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'other-packages-external',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (a) => (a.kind === 'entry-point' || inline.has(packageOf(a.path)) ? undefined : { path: a.path, external: true }));
      },
    },
  ],
});
