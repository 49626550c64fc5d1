#!/usr/bin/env node
/**
 * Builds build/Release/sledge_native.node with node-gyp, and never fails:
 * without a compiler toolchain (or on any build error) it prints one line and
 * exits 0, and the TypeScript generator is used instead.
 *
 *   node scripts/build-native.mjs            build unless up to date (package "build")
 *   node scripts/build-native.mjs --install  same, run by the package "install" script
 *   node scripts/build-native.mjs --force    rebuild even when up to date
 *
 * "Up to date" means the addon exists and a stamp of its inputs (binding.gyp,
 * src/*, node-addon-api version, platform/arch) matches. A prebuilt binary in
 * prebuilds/<platform>-<arch>/ makes the build unnecessary.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const addon = join(root, 'build', 'Release', 'sledge_native.node');
const stampFile = join(root, 'build', 'sledge-native.stamp');
const logFile = join(root, 'build', 'native-build.log');
const prebuild = join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'sledge_native.node');
const force = process.argv.includes('--force');
const say = (msg) => console.log(`@sledge/worker-native: ${msg}`);
const skip = (why) => {
  say(`native addon not built (${why}); the TypeScript generator will be used`);
  process.exit(0);
};

function inputsStamp() {
  const h = createHash('sha256');
  h.update(`${process.platform}-${process.arch}\n`);
  h.update(readFileSync(join(root, 'binding.gyp')));
  for (const f of readdirSync(join(root, 'src')).sort()) {
    h.update(`\n${f}\n`);
    h.update(readFileSync(join(root, 'src', f)));
  }
  try {
    const req = createRequire(join(root, 'package.json'));
    h.update(`\nnode-addon-api ${req('node-addon-api/package.json').version}`);
  } catch {
    skip('node-addon-api is not installed');
  }
  return h.digest('hex');
}

/** True when `cmd args` runs and exits 0. */
const runs = (cmd, args = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore', shell: false }).status === 0;

function toolchainProblem() {
  if (process.platform === 'win32') return undefined; // node-gyp finds Visual Studio itself
  const cxx = process.env.CXX ? [process.env.CXX] : ['c++', 'g++', 'clang++'];
  if (!cxx.some((c) => runs(c))) return 'no C++ compiler (c++/g++/clang++) found';
  if (!runs('make')) return 'make not found';
  const py = process.env.PYTHON ? [process.env.PYTHON] : ['python3', 'python'];
  if (!py.some((p) => runs(p))) return 'python3 not found (node-gyp needs it)';
  return undefined;
}

/** node-gyp command: the one the package manager provides, an installed one, or pnpm's bundled one. */
function nodeGyp() {
  const fromEnv = process.env.npm_config_node_gyp;
  if (fromEnv && existsSync(fromEnv)) return fromEnv.endsWith('.js') ? [process.execPath, fromEnv] : [fromEnv];
  try {
    return [process.execPath, createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js')];
  } catch {
    /* not installed locally */
  }
  // The copy bundled with the package manager running us, or with pnpm/npm on PATH.
  const managers = [process.env.npm_execpath, onPath('pnpm'), onPath('npm')].filter((p) => p !== undefined);
  for (const m of managers) {
    const dir = dirname(realpathSync(m));
    for (const rel of ['../dist/node_modules', '../node_modules', 'node_modules']) {
      const p = join(dir, rel, 'node-gyp', 'bin', 'node-gyp.js');
      if (existsSync(p)) return [process.execPath, p];
    }
  }
  if (runs('node-gyp')) return ['node-gyp'];
  return undefined;
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

/** Local Node headers (e.g. /usr/include/node) so node-gyp never downloads them. */
function nodedirArgs() {
  if (process.env.npm_config_nodedir) return [];
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? [`--nodedir=${prefix}`] : [];
}

if (existsSync(prebuild) && !force) {
  say(`using prebuilt ${prebuild}`);
  process.exit(0);
}
const stamp = inputsStamp();
if (!force && existsSync(addon) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  say('native addon up to date');
  process.exit(0);
}
const problem = toolchainProblem();
if (problem) skip(problem);
const gyp = nodeGyp();
if (!gyp) skip('node-gyp not found');

const started = Date.now();
const [cmd, ...pre] = gyp;
const res = spawnSync(cmd, [...pre, 'rebuild', `--jobs=${Math.max(1, Math.min(4, (await import('node:os')).availableParallelism()))}`, ...nodedirArgs()], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
mkdirSync(join(root, 'build'), { recursive: true });
writeFileSync(logFile, `${res.stdout ?? ''}\n${res.stderr ?? ''}`);
if (res.status !== 0 || !existsSync(addon)) {
  const lines = `${res.stderr ?? ''}\n${res.stdout ?? ''}`.split('\n').map((l) => l.trim());
  const compiler = lines.find((l) => !l.startsWith('gyp') && /\berror\b|No rule to make target/i.test(l));
  const gypLine = lines.find((l) => l.startsWith('gyp ERR!') && !/^gyp ERR! (stack|System|command|cwd|node -v|node-gyp -v|not ok)/.test(l));
  const why = res.error?.message ?? compiler ?? gypLine ?? `node-gyp exited ${res.status}`;
  skip(`${why.slice(0, 200)}; full log in build/native-build.log`);
}
writeFileSync(stampFile, stamp);
say(`built build/Release/sledge_native.node in ${((Date.now() - started) / 1000).toFixed(1)} s`);
