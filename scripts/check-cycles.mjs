#!/usr/bin/env node
/**
 * Fails when a package's src/ has an import cycle: imports flow one way inside
 * a package as they do between packages (docs/architecture.md). Walks the
 * relative imports (type-only ones too: a type cycle is the same tangle) of
 * every workspace package's src/**\/*.ts(x) and prints one cycle for each
 * strongly connected group of files. `pnpm lint` runs it after eslint.
 *
 * Usage: node scripts/check-cycles.mjs [package-dir ...]   (default: all)
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP = new Set(['node_modules', 'dist', 'build']);

function packageDirs() {
  const out = ['server', 'ui', 'worker-native'];
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(root, group))) out.push(join(group, name));
  }
  return out.filter((d) => existsSync(join(root, d, 'src')));
}

function sourceFiles(dir, acc = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, acc);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) acc.push(path);
  }
  return acc;
}

// `import/export ... from './x.js'`, `import './x.js'`, `import('./x.js')`: relative specifiers only.
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolveSpecifier(fromFile, spec) {
  const base = resolve(dirname(fromFile), spec).replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function graphOf(srcDir) {
  const graph = new Map();
  for (const file of sourceFiles(srcDir)) {
    const deps = new Set();
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveSpecifier(file, m[1] ?? m[2] ?? m[3]);
      if (target) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** Tarjan's strongly connected components; returns those that form a cycle. */
function cycles(graph) {
  let index = 0;
  const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], found = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const scc = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); scc.push(w); } while (w !== v);
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc);
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

/** One concrete loop through a component, for the message (breadth-first from its first file back to it). */
function loopIn(graph, scc) {
  const members = new Set(scc), start = scc[0], prev = new Map([[start, null]]), queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)) path.splice(1, 0, x);
        return [...path, start];
      }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return scc;
}

const dirs = process.argv.length > 2 ? process.argv.slice(2) : packageDirs();
let failures = 0;
for (const dir of dirs) {
  const src = join(resolve(root, dir), 'src');
  const graph = graphOf(src);
  for (const scc of cycles(graph)) {
    failures++;
    console.error(`import cycle in ${dir}/src: ${loopIn(graph, scc).map((f) => relative(src, f)).join(' -> ')}`);
  }
}
if (failures > 0) {
  console.error(`${failures} import cycle(s): move what both sides need into its own file so imports go one way.`);
  process.exit(1);
}
console.log(`no import cycles in ${dirs.length} package(s)`);
