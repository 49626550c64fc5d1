#!/usr/bin/env node
/**
 * Builds build/Release/sledge_native.node (row generator) and, when libpq is
 * there (pg_config and libpq-fe.h), build/Release/sledge_pgvu.node (native
 * PostgreSQL VU loop), and when the MariaDB C connector is there
 * (mariadb_config, or mysql.h and libmariadb), build/Release/sledge_myvu.node
 * (native MariaDB/MySQL VU loop) with node-gyp, and never fails: without a
 * compiler toolchain (or on any build error) it prints one line and exits 0,
 * and the TypeScript generator is used instead; without a client library (or
 * when only a VU loop target fails to compile) it prints one line, builds the
 * rest, and that engine's VUs run in JavaScript: a WARNING line says so, what
 * it costs and which package to install (scripts/native-notes.mjs), on every
 * run, up to date or not, so a second `pnpm install` does not hide it.
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
import { loopWarning } from './native-notes.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const addon = join(root, 'build', 'Release', 'sledge_native.node');
const stampFile = join(root, 'build', 'sledge-native.stamp');
const logFile = join(root, 'build', 'native-build.log');
const pgvuAddon = join(root, 'build', 'Release', 'sledge_pgvu.node');
const prebuild = join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'sledge_native.node');
const pgvuPrebuild = join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'sledge_pgvu.node');
const myvuAddon = join(root, 'build', 'Release', 'sledge_myvu.node');
const myvuPrebuild = join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'sledge_myvu.node');
const force = process.argv.includes('--force');
const say = (msg) => console.log(`@sledge/worker-native: ${msg}`);
const skip = (why) => {
  say(`native addon not built (${why}); the TypeScript generator will be used`);
  // Called once pg and my are known (inputsStamp and after): the loops are not built either.
  warnLoops(pg.ok ? why : pg.why, my.ok ? why : my.why);
  process.exit(0);
};

/** Files under dir (recursively), as paths relative to it, sorted. */
function sourceFiles(dir, rel = '') {
  const out = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...sourceFiles(dir, r));
    else out.push(r);
  }
  return out;
}

/**
 * libpq for the sledge_pgvu target: include and lib dirs from pg_config, or
 * why it cannot be built. SLEDGE_PGVU=off skips it on purpose.
 */
function libpq() {
  if (process.env.SLEDGE_PGVU === 'off') return { ok: false, why: 'SLEDGE_PGVU=off', onPurpose: true };
  if (process.platform === 'win32') return { ok: false, why: 'the native VU loop is built on POSIX systems only', onPurpose: true };
  const q = (flag) => {
    const r = spawnSync(process.env.PG_CONFIG || 'pg_config', [flag], { encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim() : undefined;
  };
  const includedir = q('--includedir');
  const libdir = q('--libdir');
  if (includedir === undefined || libdir === undefined) return { ok: false, why: 'pg_config not found' };
  if (!existsSync(join(includedir, 'libpq-fe.h'))) return { ok: false, why: `no libpq-fe.h in ${includedir}` };
  return { ok: true, includedir, libdir };
}

/**
 * The MariaDB C connector for the sledge_myvu target (the loop uses its
 * non-blocking API, which MySQL's libmysqlclient lacks): include and lib
 * dirs from mariadb_config, else mysql.h under /usr/include/mariadb and
 * libmariadb in a system lib dir; or why it cannot be built.
 * SLEDGE_MYVU=off skips it on purpose.
 */
function libmariadb() {
  if (process.env.SLEDGE_MYVU === 'off') return { ok: false, why: 'SLEDGE_MYVU=off', onPurpose: true };
  if (process.platform === 'win32') return { ok: false, why: 'the native VU loop is built on POSIX systems only', onPurpose: true };
  const r = spawnSync(process.env.MARIADB_CONFIG || 'mariadb_config', ['--include', '--libs'], { encoding: 'utf8' });
  if (r.status === 0) {
    const [inc = '', libs = ''] = r.stdout.trim().split('\n');
    const includedir = inc.split(/\s+/).map((t) => t.replace(/^-I/, '')).find((d) => d && existsSync(join(d, 'mysql.h')));
    const libdir = (libs.split(/\s+/).find((t) => t.startsWith('-L')) ?? '').slice(2).replace(/\/$/, '');
    if (includedir === undefined) return { ok: false, why: `mariadb_config names no directory with mysql.h` };
    if (!libdir) return { ok: false, why: `mariadb_config --libs names no library directory` };
    return { ok: true, includedir, libdir };
  }
  const includedir = '/usr/include/mariadb';
  if (!existsSync(join(includedir, 'mysql.h'))) return { ok: false, why: `mariadb_config not found and no ${includedir}/mysql.h` };
  const triplet = spawnSync('gcc', ['-print-multiarch'], { encoding: 'utf8' }).stdout?.trim();
  const libdir = ['/usr/lib', '/usr/lib64', ...(triplet ? [`/usr/lib/${triplet}`] : [])].find((d) => existsSync(join(d, 'libmariadb.so')));
  if (libdir === undefined) return { ok: false, why: `no libmariadb.so beside ${includedir}/mysql.h` };
  return { ok: true, includedir, libdir };
}

function inputsStamp(pg, my) {
  const h = createHash('sha256');
  h.update(`${process.platform}-${process.arch}\n`);
  h.update(readFileSync(join(root, 'binding.gyp')));
  h.update(`\npgvu ${pg.ok ? `${pg.includedir} ${pg.libdir}` : 'off'}\n`);
  h.update(`\nmyvu ${my.ok ? `${my.includedir} ${my.libdir}` : 'off'}\n`);
  for (const f of sourceFiles(join(root, 'src'))) {
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

const pg = libpq();
const my = libmariadb();
const pgvuWanted = pg.ok && !existsSync(pgvuPrebuild);
const myvuWanted = my.ok && !existsSync(myvuPrebuild);
/** The loops that will not be there, each on its own WARNING line (stderr as well as stdout would print it twice under pnpm). */
const warnLoops = (pgWhy, myWhy) => {
  if (pgWhy) say(loopWarning('pgvu', pgWhy, pg.onPurpose === true));
  if (myWhy) say(loopWarning('myvu', myWhy, my.onPurpose === true));
};
if (existsSync(prebuild) && !pgvuWanted && !myvuWanted && !force) {
  say(`using prebuilt ${prebuild}`);
  warnLoops(pg.ok ? '' : pg.why, my.ok ? '' : my.why);
  process.exit(0);
}
const stamp = inputsStamp(pg, my);
if (
  !force &&
  existsSync(addon) &&
  (!pg.ok || existsSync(pgvuAddon)) &&
  (!my.ok || existsSync(myvuAddon)) &&
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8') === stamp
) {
  say('native addon up to date');
  warnLoops(pg.ok ? '' : pg.why, my.ok ? '' : my.why);
  process.exit(0);
}
const problem = toolchainProblem();
if (problem) skip(problem);
const gyp = nodeGyp();
if (!gyp) skip('node-gyp not found');

const started = Date.now();
const [cmd, ...pre] = gyp;
const jobs = Math.max(1, Math.min(4, (await import('node:os')).availableParallelism()));
/** node-gyp rebuild, with or without the VU loop targets. */
const rebuild = (withPgvu, withMyvu) =>
  spawnSync(
    cmd,
    [
      ...pre,
      'rebuild',
      `--jobs=${jobs}`,
      ...nodedirArgs(),
      '--',
      ...(withPgvu ? ['-Dsledge_pgvu=1', `-Dpg_includedir=${pg.includedir}`, `-Dpg_libdir=${pg.libdir}`] : []),
      ...(withMyvu ? ['-Dsledge_myvu=1', `-Dmy_includedir=${my.includedir}`, `-Dmy_libdir=${my.libdir}`] : []),
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
const failure = (res) => {
  const lines = `${res.stderr ?? ''}\n${res.stdout ?? ''}`.split('\n').map((l) => l.trim());
  const compiler = lines.find((l) => !l.startsWith('gyp') && /\berror\b|No rule to make target/i.test(l));
  const gypLine = lines.find((l) => l.startsWith('gyp ERR!') && !/^gyp ERR! (stack|System|command|cwd|node -v|node-gyp -v|not ok)/.test(l));
  return (res.error?.message ?? compiler ?? gypLine ?? `node-gyp exited ${res.status}`).slice(0, 200);
};
const built = (res, withPgvu, withMyvu) => res.status === 0 && existsSync(addon) && (!withPgvu || existsSync(pgvuAddon)) && (!withMyvu || existsSync(myvuAddon));
mkdirSync(join(root, 'build'), { recursive: true });
// Everything that can be built; when that fails, each VU loop alone, then the generator alone.
const attempts = [[pg.ok, my.ok]];
if (pg.ok && my.ok) attempts.push([true, false], [false, true]);
if (pg.ok || my.ok) attempts.push([false, false]);
let res;
let log = '';
let firstFailure = '';
let withPg = false;
let withMy = false;
for (const [p, m] of attempts) {
  res = rebuild(p, m);
  log += `${log ? `\n--- rebuilt with${p ? '' : 'out'} sledge_pgvu, with${m ? '' : 'out'} sledge_myvu ---\n` : ''}${res.stdout ?? ''}\n${res.stderr ?? ''}`;
  if (built(res, p, m)) {
    withPg = p;
    withMy = m;
    break;
  }
  firstFailure ||= failure(res);
}
writeFileSync(logFile, log);
const why = `${firstFailure}; full log in build/native-build.log`;
warnLoops(!pg.ok ? pg.why : withPg ? '' : why, !my.ok ? my.why : withMy ? '' : why);
if (res.status !== 0 || !existsSync(addon)) skip(`${failure(res)}; full log in build/native-build.log`);
writeFileSync(stampFile, stamp);
const loops = [withPg ? 'sledge_pgvu.node' : '', withMy ? 'sledge_myvu.node' : ''].filter(Boolean);
say(`built build/Release/sledge_native.node${loops.length ? ` and ${loops.join(' and ')}` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
