#!/usr/bin/env node
/**
 * Assembles what the runtime image needs from a built, production-pruned
 * checkout (the Dockerfile's build stage) into one directory:
 *
 *   node deploy/image-files.mjs /out          copy into /out (must not exist or be empty)
 *   node deploy/image-files.mjs --list        print "source -> target" lines, copy nothing
 *
 * What goes in: the root package.json (server/src/version.ts reads it) and
 * node_modules (pnpm's virtual store: after `pnpm install --prod` only
 * production packages), then every workspace package the server and the CLI
 * load at run time, each with its package.json, node_modules (symlinks kept
 * as they are) and the entries of its "files" field (its published content:
 * dist, SQL folders, migrations), or dist when it has none. A package with a
 * binding.gyp also gets its built addons (build/Release/*.node), which
 * "files" leaves out because they are built at install.
 *
 * The starting packages are @sledge/server and @sledge/cli (the two
 * commands), @sledge/agent (the server starts apps/agent/dist/main.js, see
 * server/src/plugins/local-agent.ts) and @sledge/ui (the server serves
 * ui/dist, see server/src/app.ts); their workspace dependencies follow.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOTS = ['@sledge/server', '@sledge/cli', '@sledge/agent', '@sledge/ui'];

/** Workspace package folders (relative to root) from pnpm-workspace.yaml's `packages:` list ("dir" or "dir/*"). */
export function workspaceDirs(root) {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\s*\n((?:[ \t]+-.*\n?)+)/m.exec(text);
  if (!block) throw new Error('pnpm-workspace.yaml has no packages: list');
  const dirs = [];
  for (const line of block[1].split('\n')) {
    const m = /^\s*-\s*['"]?([^'"#\s]+)['"]?/.exec(line);
    if (!m) continue;
    const pattern = m[1];
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      if (!existsSync(join(root, parent))) continue;
      for (const e of readdirSync(join(root, parent), { withFileTypes: true })) {
        if (e.isDirectory() && existsSync(join(root, parent, e.name, 'package.json'))) dirs.push(`${parent}/${e.name}`);
      }
    } else if (existsSync(join(root, pattern, 'package.json'))) {
      dirs.push(pattern);
    }
  }
  return dirs.sort();
}

/** Runtime workspace packages: ROOTS and their workspace dependencies, as { name, dir, manifest }. */
export function runtimePackages(root) {
  const byName = new Map();
  for (const dir of workspaceDirs(root)) {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    byName.set(manifest.name, { name: manifest.name, dir, manifest });
  }
  const out = new Map();
  const visit = (name, from) => {
    if (out.has(name)) return;
    const pkg = byName.get(name);
    if (!pkg) throw new Error(`${from} needs ${name}, which is not a workspace package`);
    out.set(name, pkg);
    for (const [dep, spec] of Object.entries(pkg.manifest.dependencies ?? {})) {
      if (String(spec).startsWith('workspace:')) visit(dep, name);
    }
  };
  for (const r of ROOTS) visit(r, 'the image');
  return [...out.values()].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/** The copies to make, as [source, target] paths relative to root and to the output directory (the same). */
export function imageFiles(root) {
  const paths = ['package.json', 'node_modules'];
  for (const { dir, manifest } of runtimePackages(root)) {
    paths.push(`${dir}/package.json`);
    if (existsSync(join(root, dir, 'node_modules'))) paths.push(`${dir}/node_modules`);
    for (const f of manifest.files ?? ['dist']) {
      if (existsSync(join(root, dir, f))) paths.push(`${dir}/${f}`);
      else if (f === 'dist') throw new Error(`${dir}/dist is missing: run pnpm build first`);
    }
    const release = join(root, dir, 'build', 'Release');
    if (existsSync(join(root, dir, 'binding.gyp')) && existsSync(release)) {
      for (const f of readdirSync(release)) if (f.endsWith('.node')) paths.push(`${dir}/build/Release/${f}`);
    }
  }
  return paths;
}

function main(argv) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const files = imageFiles(root);
  if (argv[0] === '--list') {
    for (const p of files) console.log(p);
    return 0;
  }
  if (argv.length !== 1 || argv[0].startsWith('-')) {
    console.error('usage: node deploy/image-files.mjs OUT_DIR | --list');
    return 2;
  }
  const out = resolve(argv[0]);
  if (existsSync(out) && readdirSync(out).length > 0) {
    console.error(`${out} is not empty`);
    return 2;
  }
  mkdirSync(out, { recursive: true });
  for (const p of files) {
    mkdirSync(dirname(join(out, p)), { recursive: true });
    // verbatimSymlinks: pnpm's links are relative (../../node_modules/.pnpm/...) and stay valid inside out/.
    cpSync(join(root, p), join(out, p), { recursive: true, verbatimSymlinks: true });
  }
  console.log(`image files: ${files.length} paths from ${relative(process.cwd(), root) || '.'} into ${out}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
