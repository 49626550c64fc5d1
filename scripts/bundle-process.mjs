#!/usr/bin/env node
/**
 * Bundles a process's entry points (tsc's output in dist/) into a few ES module files in dist/:
 * the package's own files and its npm dependencies inlined, workspace packages (@sledge/*) and
 * packages with native addons left as imports.
 *
 *   node ../scripts/bundle-process.mjs main=dist/main.js [app.bundle=dist/app.js ...]
 *
 * NAME=FILE writes dist/NAME.js; when NAME is FILE's own name (main=dist/main.js) the bundle
 * replaces tsc's file, which stays beside it as dist/NAME.files.js (its relative imports still
 * resolve there). What the entries share, and what they import with import() (the OpenAPI docs,
 * the dashboard's static files, the NATS hub), goes to dist/chunk-*.js, loaded when first used.
 *
 * Why: a `sledge --local` command, a server and a test's spawned process paid ~40-50% of their
 * start CPU in Node's module loader (resolving, stat-ing, reading and compiling ~890 files one by
 * one: docs/benchmarks.md, "Process start"). One file per entry costs a fraction of that.
 *
 * What keeps behaviour identical:
 * - `import.meta.url` in an inlined file becomes that file's own URL, computed from the bundle's
 *   (`new URL('./workloads/tprocc/run.js', import.meta.url)`): worker-thread scripts
 *   (server/dist/worker/vu-worker.js, build-worker.js ...), native-vus.js specifiers, ui/dist,
 *   apps/agent, package.json, apps/cli/python are found where tsc's files find them, and
 *   `createRequire(import.meta.url)` (ECharts) resolves from the same folder. Every output file
 *   is in dist/ itself, so one relative path holds for all of them.
 * - An inlined CommonJS file that uses __dirname or __filename gets its own (the same relative
 *   computation): @fastify/swagger-ui serves its static folder from __dirname.
 * - `require` is Node's (createRequire of the bundle's URL), so Node's built-ins and optional
 *   peers load as before; a `require.resolve` inlined here would resolve from dist/, which the
 *   check below refuses.
 * - Names are kept (keepNames): Fastify names plugins and errors after functions.
 * - Workspace packages stay imports: @sledge/protocol's SledgeError is one class for the CLI and
 *   the in-process server, and worker threads import the same packages.
 * - Bare specifiers computed at run time (drivers.ts's import(MODULES[e].pkg)) resolve from dist/,
 *   the package's own folder, as from tsc's files.
 *
 * Files that need care are refused rather than bundled wrong; the build stops naming them:
 * - `require.resolve`, or `import.meta` other than `import.meta.url`, in an inlined file;
 * - `import()` of an npm package (or inside one): in a chunk, a CommonJS module's namespace has
 *   only `default`, where Node's has its named exports too (`const { connect } = await
 *   import('@nats-io/transport-node')` gets undefined). Import the package statically in a file
 *   of the repository's own and import() that file (server/src/plugins/docs.ts,
 *   server/src/replicas/nats-client.ts).
 */
import { build } from 'esbuild';
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

const entries = process.argv.slice(2).map((a) => a.split('='));
if (!entries.length || entries.some((e) => e.length !== 2)) {
  console.error('usage: bundle-process.mjs NAME=dist/FILE.js ...');
  process.exit(2);
}
const outdir = resolve('dist');

/** The package name of a bare specifier: 'ws/lib/x' -> 'ws', '@scope/x/y' -> '@scope/x'. */
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** A package that builds a native addon (binding.gyp, or "gypfile" in its package.json) stays an import. */
const nativeCache = new Map();
function isNative(file) {
  let dir = dirname(file);
  while (dir !== dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) break;
    dir = dirname(dir);
  }
  if (nativeCache.has(dir)) return nativeCache.get(dir);
  let native = existsSync(join(dir, 'binding.gyp'));
  try {
    native ||= JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).gypfile === true;
  } catch {
    // no package.json: not a package folder
  }
  nativeCache.set(dir, native);
  return native;
}

/**
 * `new URL('<file relative to dist/>', <base>)`: the inlined file's own location, from the output
 * file's. An ES module's base is import.meta.url; a CommonJS file's is the banner's copy of it
 * (import.meta in a file would make esbuild take it for an ES module).
 */
const relUrl = (file, base = 'import.meta.url') => {
  const rel = relative(outdir, file).split(sep).join('/');
  return `new URL(${JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)}, ${base})`;
};

/** Every output file's first line: Node's require, and what inlined CommonJS files' __dirname is made of. */
const BANNER = [
  "import { createRequire as __sledgeCreateRequire } from 'node:module';",
  "import { fileURLToPath as __sledgeFileURLToPath } from 'node:url';",
  "import { dirname as __sledgeDirname } from 'node:path';",
  'const require = __sledgeCreateRequire(import.meta.url);',
  'const __sledgeBundleUrl = import.meta.url;',
];

const refused = [];
const plugin = {
  name: 'sledge-process-bundle',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (a) => {
      if (a.kind === 'entry-point' || a.path.startsWith('node:') || a.pluginData?.inner) return undefined;
      const pkg = packageOf(a.path);
      if (pkg.startsWith('@sledge/')) return { path: a.path, external: true };
      const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, pluginData: { inner: true } });
      if (r.errors.length || !r.path) return undefined; // esbuild reports it (or leaves an optional require in a try)
      if (isNative(r.path)) return { path: a.path, external: true };
      if (a.kind === 'dynamic-import') refused.push(`${a.importer}: import('${a.path}') of an npm package`);
      return undefined;
    });
    b.onResolve({ filter: /^\./ }, (a) => {
      if (a.kind === 'dynamic-import' && a.importer.includes(`${sep}node_modules${sep}`)) refused.push(`${a.importer}: import('${a.path}') in an npm package`);
      return undefined;
    });
    b.onLoad({ filter: /\.(c|m)?js$/ }, (a) => {
      const text = readFileSync(a.path, 'utf8');
      const inDeps = a.path.includes(`${sep}node_modules${sep}`);
      if (/\brequire\.resolve\b/.test(text)) refused.push(`${a.path}: require.resolve`);
      if (/\bimport\.meta(?!\.url)\b/.test(text.replace(/import\.meta\.url/g, ''))) refused.push(`${a.path}: import.meta other than import.meta.url`);
      let out = text.replace(/\bimport\.meta\.url\b/g, `${relUrl(a.path)}.href`);
      // A package's own source map names sources it does not ship (ajv's lib/*.ts ...): map to its JS instead.
      if (inDeps) out = out.replace(/^\/\/# sourceMappingURL=\S+\s*$/gm, '');
      // CommonJS only: ESM files have no __dirname of their own (a mention there is someone else's variable).
      const cjs = inDeps && !/^\s*(import|export)\s/m.test(text) && /\b(__dirname|__filename)\b/.test(text);
      if (cjs) out = `var __filename = __sledgeFileURLToPath(${relUrl(a.path, '__sledgeBundleUrl')}), __dirname = __sledgeDirname(__filename);` + out;
      return out === text ? undefined : { contents: out, loader: 'js', resolveDir: dirname(a.path) };
    });
  },
};

// An earlier build's chunks go first: their names carry hashes, so nothing else replaces them.
for (const f of readdirSync(outdir)) if (/^chunk-[A-Z0-9]+\.js(\.map)?$/.test(f)) rmSync(join(outdir, f));
const entryPoints = [];
for (const [name, file] of entries) {
  const path = resolve(file);
  if (!existsSync(path)) {
    console.error(`bundle-process: ${path} is missing: run tsc first`);
    process.exit(1);
  }
  let input = path;
  if (basename(path) === `${name}.js` && dirname(path) === outdir) {
    // tsc's own entry stays beside the bundle (same folder: its relative imports still resolve).
    // Run again without tsc, the entry is the last bundle: bundle tsc's copy again.
    input = join(outdir, `${name}.files.js`);
    if (!readFileSync(path, 'utf8').includes(BANNER[0])) copyFileSync(path, input);
    else if (!existsSync(input)) {
      console.error(`bundle-process: ${path} is a bundle already and tsc's copy is gone: run tsc first`);
      process.exit(1);
    }
  }
  entryPoints.push({ in: input, out: name });
}

const result = await build({
  entryPoints,
  outdir,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  keepNames: true,
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: BANNER.join(' ') },
  plugins: [plugin],
  metafile: true,
});
if (refused.length) {
  console.error(`bundle-process: these inlined files need care (see the script's comment):\n  ${refused.join('\n  ')}`);
  process.exit(1);
}
// SLEDGE_BUNDLE_META=FILE: esbuild's metafile (what went where, bytes per input), e.g. for esbuild's analyzer.
if (process.env['SLEDGE_BUNDLE_META']) writeFileSync(process.env['SLEDGE_BUNDLE_META'], JSON.stringify(result.metafile));
const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js'));
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`bundle-process: ${inputs} files -> ${outputs.map(([f, o]) => `${relative(outdir, resolve(f))} (${Math.round(o.bytes / 1024)} KiB)`).join(', ')}`);
