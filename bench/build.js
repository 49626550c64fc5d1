/**
 * pnpm bench build [--warehouses N] [--engines pg,mariadb] [--rounds N] [--phase all|files|build|bulk] [--files DIR] [--db-prefix P] [--bulk-variants all] [--keep]
 *                   [--schedules ranges,lanes,rows,swap] [--loaders native,js] [--lend 1,0]
 * pnpm bench build16 | build100   (the same with N = 16 or 100; build16 alone keeps its old meaning: PostgreSQL only)
 *
 * A Sledge build of N warehouses (2 build VUs, through the REST API) against the engine's own bulk load of the
 * same rows from pre-generated files, in 2 client sessions, followed by the same keys and statistics steps:
 * - PostgreSQL: psql \copy of COPY-text files, then packages/sql/postgresql/tprocc/indexes.sql + ANALYZE
 * - MariaDB:    LOAD DATA LOCAL INFILE of CSV files (the mariadb client, --local-infile), then
 *               packages/sql/mysql/tprocc/indexes.sql + ANALYZE TABLE of every table (counters.sql "analyze");
 *               with --bulk-variants all the bulk load also runs with unique_checks and foreign_key_checks
 *               off (what mysqldump-style bulk loads set; slower on MariaDB 10.11)
 * Each engine's bulk load is followed by the keys and statistics two ways, each a row of its own: the script in
 * one session (as `psql -f` / `mariadb <` runs it), and the same statements split over two sessions the way a
 * Sledge build splits them (core keySessions: each session its tables' keys, then their statistics), so the
 * ratio is shown against a reference that does what the build does, too.
 * The files are what the build's generator writes for the engine's bulk format (same seed rules, same bytes).
 * With --rounds N the build and the bulk load alternate (build, bulk, bulk, build, ...) and every figure is
 * reported as min-max over the rounds. --phase splits a long measurement into separate (locked) commands:
 * `files` only writes --files DIR, `build` / `bulk` time one side (ratios then come from two result files).
 * MariaDB's innodb_buffer_pool_size is raised online to 1 GB for the duration (as the mariadb section does)
 * and restored.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GB = 1024 * 1024 * 1024;
const PG_ORDER = ['stock', 'order_line', 'customer', 'history', 'orders', 'item', 'new_order', 'district', 'warehouse'];

/** Two sessions, like two build VUs: the big tables split between them (stock | order_line first). */
const lanesOf = (order) => {
  const lanes = [[], []];
  order.forEach((t, i) => lanes[i % 2].push(t));
  return lanes;
};

/** Named-statement files as one script: markers dropped, each statement ended. */
const script = (text) =>
  text
    .split(/^-- name:.*$/m)
    .map((s) => s.replace(/^--.*$/gm, '').trim())
    .filter(Boolean)
    .map((s) => (s.endsWith(';') ? s : s + ';'))
    .join('\n');

const ENGINES = {
  pg: {
    name: 'PostgreSQL',
    engine: 'postgresql',
    format: 'pg-text',
    ext: '.tsv',
    server: 'postgres',
    target: (db) => ({ engine: 'postgresql', host: '127.0.0.1', port: 5432, user: db, password: 'bench', database: db, superuser: 'postgres', superuserPassword: 'postgres' }),
    cli: 'psql',
    args: (db) => ['-X', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', db, '-v', 'ON_ERROR_STOP=1'],
    create(db, sql) {
      execFileSync('psql', this.args('postgres'), { input: `drop database if exists ${db};\ncreate database ${db};\n`, stdio: ['pipe', 'ignore', 'inherit'] });
      execFileSync('psql', this.args(db), { input: script(sql('tables.sql')), stdio: ['pipe', 'ignore', 'inherit'] });
    },
    drop(db) {
      execFileSync('psql', this.args('postgres'), { input: `drop database if exists ${db};\n`, stdio: ['pipe', 'ignore', 'inherit'] });
    },
    loadScript: (lane, dir, cols) => 'BEGIN;\n' + lane.map((t) => `\\copy ${t} (${cols[t].join(',')}) from '${join(dir, t + '.tsv')}'`).join('\n') + '\nCOMMIT;\n',
    finish: (sql) => script(sql('indexes.sql')) + '\nANALYZE;\n',
    finishLane: (keys, tables) => keys.map((k) => k.trim() + ';').join('\n') + '\n' + tables.map((t) => `ANALYZE ${t};`).join('\n') + '\n',
    variants: [
      { name: 'psql \\copy', prelude: '' },
      { name: 'psql \\copy', prelude: '', keySessions: 2 },
    ],
  },
  mariadb: {
    name: 'MariaDB',
    engine: 'mariadb',
    format: 'csv',
    ext: '.csv',
    server: 'mariadbd',
    target: (db) => ({ engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: db }),
    cli: 'mariadb',
    args: (db) => ['-h', '127.0.0.1', '-u', 'root', '--local-infile=1', ...(db ? [db] : [])],
    create(db, sql) {
      execFileSync('mariadb', this.args(null), { input: `drop database if exists ${db};\ncreate database ${db} character set latin1 collate latin1_bin;\n`, stdio: ['pipe', 'ignore', 'inherit'] });
      const tables = sql('tables.sql').replace(/\{\{storage_engine\}\}/g, 'InnoDB').replace(/\{\{[a-z_]*\}\}/g, '');
      execFileSync('mariadb', this.args(db), { input: script(tables), stdio: ['pipe', 'ignore', 'inherit'] });
    },
    drop(db) {
      execFileSync('mariadb', this.args(null), { input: `drop database if exists ${db};\n`, stdio: ['pipe', 'ignore', 'inherit'] });
    },
    loadScript: (lane, dir, cols, prelude) =>
      prelude + lane.map((t) => `LOAD DATA LOCAL INFILE '${join(dir, t + '.csv')}' INTO TABLE ${t} CHARACTER SET latin1 FIELDS TERMINATED BY ',' (${cols[t].join(', ')});`).join('\n') + '\n',
    finish: (sql) => script(sql('indexes.sql')) + '\n' + script(sql('counters.sql').split(/^-- name: /m).find((p) => p.startsWith('analyze')).replace(/^analyze/, '')) + '\n',
    finishLane: (keys, tables) => keys.map((k) => k.trim() + ';').join('\n') + '\n' + tables.map((t) => `ANALYZE TABLE ${t};`).join('\n') + '\n',
    variants: [
      { name: 'LOAD DATA LOCAL INFILE', prelude: '' },
      { name: 'LOAD DATA LOCAL INFILE', prelude: '', keySessions: 2 },
      { name: 'LOAD DATA LOCAL INFILE, unique_checks=0 foreign_key_checks=0', prelude: 'SET unique_checks=0, foreign_key_checks=0;\n', all: true },
    ],
  },
};

/** Write every table of W warehouses in the engine's bulk format, as the build's generator makes them. */
async function writeFiles(ROOT, e, W, dir) {
  const marker = join(dir, `.complete-${e.format}-${W}`);
  if (existsSync(marker)) return { reused: true, seconds: 0 };
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const { createGenerator } = await import(join(ROOT, 'worker-native/dist/index.js'));
  const { itemUnits, warehouseUnits } = await import(join(ROOT, 'packages/core/dist/index.js'));
  const gen = createGenerator({ seed: 1, timestamp: '2026-11-22 00:00:00' }, e.format, 'auto');
  const fds = new Map();
  const write = (units) => {
    for (const u of units)
      for (const t of gen.generate(u)) {
        if (!fds.has(t.table)) fds.set(t.table, openSync(join(dir, t.table + e.ext), 'w'));
        writeSync(fds.get(t.table), typeof t.data === 'string' ? Buffer.from(t.data, 'latin1') : t.data);
      }
  };
  write(itemUnits());
  for (let w = 1; w <= W; w++) write(warehouseUnits(w));
  for (const fd of fds.values()) closeSync(fd);
  closeSync(openSync(marker, 'w'));
  return { reused: false, seconds: (performance.now() - t0) / 1000 };
}

/** Runs the engine's client on a script; resolves to its CPU seconds (user + system, from /usr/bin/time when present). */
const runCli = (e, db, input) =>
  new Promise((res, rej) => {
    const timed = existsSync('/usr/bin/time');
    const cpuFile = timed ? join(mkdtempSync(join(tmpdir(), 'sledge-bench-cpu-')), 'cpu') : null;
    const [cmd, args] = timed ? ['/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, e.cli, ...e.args(db)]] : [e.cli, e.args(db)];
    const p = spawn(cmd, args, { stdio: ['pipe', 'ignore', 'inherit'] });
    p.on('exit', (c) => {
      if (c) return rej(new Error(`${e.cli} exited ${c}`));
      if (!cpuFile) return res(null);
      const [u, sys] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number);
      rmSync(dirname(cpuFile), { recursive: true, force: true });
      res(u + sys);
    });
    p.stdin.end(input);
  });

/** A reference variant's name in the results: its load, and the keys' sessions when more than one. */
const variantId = (v) => (v.keySessions ? `${v.name}; keys + statistics in ${v.keySessions} sessions` : v.name);

/** The engine's bulk load of the files into fresh tables in 2 sessions, then the keys and statistics. */
async function bulk(ROOT, e, variant, db, dir, serverPid, treeCpuSeconds, W, keep) {
  const { sqlText } = await import(join(ROOT, 'packages/sql/dist/index.js'));
  const { TPROCC_COLUMNS } = await import(join(ROOT, 'packages/core/dist/index.js'));
  const sql = (f) => sqlText(e.engine, 'tprocc', f);
  const tc = performance.now();
  e.create(db, sql);
  const schemaS = (performance.now() - tc) / 1000;
  const srv0 = serverPid ? treeCpuSeconds(serverPid) : null;
  const t0 = performance.now();
  const laneCpu = await Promise.all(lanesOf(PG_ORDER).map((lane) => runCli(e, db, e.loadScript(lane, dir, TPROCC_COLUMNS, variant.prelude))));
  const loadS = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  let finishCpu;
  if (variant.keySessions) {
    const { keySessions } = await import(join(ROOT, 'packages/core/dist/index.js'));
    const keys = script(sql('indexes.sql')).split(/;\s*(?:\n|$)/).map((k) => k.trim()).filter(Boolean);
    const cpus = await Promise.all(keySessions(W, variant.keySessions, keys, (k) => k).map((l) => runCli(e, db, e.finishLane(l.keys, l.tables))));
    finishCpu = cpus.includes(null) ? null : cpus.reduce((a, b) => a + b, 0);
  } else finishCpu = await runCli(e, db, e.finish(sql));
  const clientCpuS = laneCpu.includes(null) || finishCpu === null ? null : laneCpu.reduce((a, b) => a + b, 0) + finishCpu;
  const finishS = (performance.now() - t1) / 1000;
  const serverCpuS = serverPid ? treeCpuSeconds(serverPid) - srv0 : null;
  if (!keep) e.drop(db);
  return { variant: variantId(variant), schemaS, loadS, finishS, wallS: loadS + finishS, clientCpuS, serverCpuS, load1: loadavg()[0] };
}

const span = (xs, d = 1, fmt) => {
  const v = xs.filter((x) => x !== null && x !== undefined && !Number.isNaN(x));
  if (v.length === 0) return '-';
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  return lo === hi || v.length === 1 ? fmt(lo, d) : `${fmt(lo, d)}-${fmt(hi, d)}`;
};

export async function benchBuild({ ROOT, quick, args, sections, withApp, submit, build, table, fmt, log, treeCpuSeconds, pidOf, results }) {
  const opt = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const named = sections.find((s) => /^build(16|100)?$/.test(s)) ?? 'build16';
  const W = Number(opt('--warehouses') ?? (named === 'build100' ? 100 : quick ? 4 : 16));
  const engines = (opt('--engines') ?? (named === 'build16' ? 'pg' : 'pg,mariadb')).split(',').map((x) => (x === 'postgresql' ? 'pg' : x));
  const rounds = Math.max(1, Number(opt('--rounds') ?? 1));
  const phase = opt('--phase') ?? 'all';
  const prefix = opt('--db-prefix') ?? 'sledge_bench';
  const keepFiles = opt('--files');
  // --keep: the last round's last build and its bulk load's database stay, to look at afterwards.
  const keep = args.includes('--keep');
  // --schedules ranges,lanes: build with each SLEDGE_BUILD_SCHEDULE in every round (A/B in one command).
  const schedules = opt('--schedules')?.split(',') ?? [null];
  // --loaders native,js: builds with each loader client in every round: native is the C client when built
  // (SLEDGE_MYLOADER=auto, SLEDGE_PGLOADER=libpq), js the JavaScript driver (mysql2, node-postgres).
  const loaders = opt('--loaders')?.split(',') ?? [null];
  // --lend 1,0: build with the generator's lent Buffers on and off (SLEDGE_BUILD_LEND) in every round.
  const lends = opt('--lend')?.split(',') ?? [null];
  const variants = schedules.flatMap((schedule) =>
    loaders.flatMap((loader) =>
      lends.map((lend) => ({ schedule, loader, lend, name: [schedule && `schedule ${schedule}`, loader && `loader ${loader}`, lend && `lend ${lend}`].filter(Boolean).join(', ') || null })),
    ),
  );
  const out = (results.sections[named] = { warehouses: W, rounds, phase, engines: {}, uptime: execFileSync('uptime').toString().trim() });
  log(`== ${named}: build of ${W} warehouses vs the engine's bulk load of the same rows from files (${engines.join(', ')}; ${rounds} round(s), phase ${phase}); ${out.uptime}`);

  for (const key of engines) {
    const e = ENGINES[key];
    if (!e) throw new Error(`--engines: unknown engine ${key} (pg, mariadb)`);
    const dir = keepFiles ? join(keepFiles, key) : mkdtempSync(join(tmpdir(), 'sledge-bench-files-'));
    let pool0 = null;
    const mysql = (q) => execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-e', q]).toString().trim();
    if (key === 'mariadb' && phase !== 'files') {
      pool0 = Number(mysql('select @@innodb_buffer_pool_size'));
      if (pool0 < GB) {
        log(`   raising innodb_buffer_pool_size online from ${pool0 / 1048576} MB to 1024 MB for the bench (restored after)`);
        mysql(`set global innodb_buffer_pool_size = ${GB}`);
      }
    }
    try {
      const r = (out.engines[key] = { builds: [], bulks: [] });
      if (phase !== 'build') {
        log(`   ${e.name}: writing ${W} warehouses of ${e.format} files to ${dir}`);
        r.files = await writeFiles(ROOT, e, W, dir);
        if (!r.files.reused) log(`   files written in ${fmt(r.files.seconds)} s`);
      }
      if (phase === 'files') continue;
      const serverPid = pidOf(e.server);
      const target = e.target(`${prefix}_${key}${W}`);
      const bulkDb = `${prefix}_${key}${W}_bulk`;
      await withApp(async (s) => {
        for (let round = 0; round < rounds; round++) {
          const keepRound = keep && round === rounds - 1;
          const steps = round % 2 === 0 ? ['build', 'bulk'] : ['bulk', 'build'];
          for (const step of steps) {
            if (step === 'build' && phase !== 'bulk') {
              // With several variants, their order alternates from round to round too.
              const order = round % 2 === 0 ? variants : [...variants].reverse();
              for (const [vi, { schedule, loader, lend, name }] of order.entries()) {
                log(`   round ${round + 1}: Sledge build${name ? `, ${name}` : ''}`);
                const env0 = { SLEDGE_BUILD_SCHEDULE: process.env.SLEDGE_BUILD_SCHEDULE, SLEDGE_MYLOADER: process.env.SLEDGE_MYLOADER, SLEDGE_PGLOADER: process.env.SLEDGE_PGLOADER, SLEDGE_BUILD_LEND: process.env.SLEDGE_BUILD_LEND };
                if (schedule) process.env.SLEDGE_BUILD_SCHEDULE = schedule;
                if (loader) {
                  if (loader !== 'native' && loader !== 'js') throw new Error(`--loaders: native or js, not ${loader}`);
                  process.env.SLEDGE_MYLOADER = loader === 'js' ? 'mysql2' : 'auto';
                  process.env.SLEDGE_PGLOADER = loader === 'js' ? 'node-postgres' : 'libpq';
                }
                if (lend) process.env.SLEDGE_BUILD_LEND = lend;
                let b;
                try {
                  b = await build(s, target, W, 2, serverPid);
                } finally {
                  // The sections after this one build with the driver's own choices again.
                  for (const [k, v] of Object.entries(env0)) {
                    if (v === undefined) delete process.env[k];
                    else process.env[k] = v;
                  }
                }
                b.load1 = loadavg()[0];
                b.schedule = name;
                // --keep: only the round's last build stays (every build goes to the same target).
                if (!(keepRound && vi === order.length - 1)) await submit(s, { type: 'delete', target });
                log(`     wall ${fmt(b.wallS)} s (load ${fmt(b.phases.loadS)} s, finish ${fmt(b.phases.finishS)} s)`);
                r.builds.push(b);
              }
            }
            if (step === 'bulk' && phase !== 'build') {
              for (const v of opt('--bulk-variants') === 'all' ? e.variants : e.variants.filter((x) => !x.all)) {
                log(`   round ${round + 1}: ${v.name}`);
                const x = await bulk(ROOT, e, v, bulkDb, dir, serverPid, treeCpuSeconds, W, keepRound);
                log(`     load ${fmt(x.loadS)} s, keys + statistics ${fmt(x.finishS)} s`);
                r.bulks.push(x);
              }
            }
          }
        }
      });
      for (const { name } of variants) print(e, W, { ...r, builds: r.builds.filter((b) => b.schedule === name) }, rounds, table, fmt, name);
    } finally {
      if (pool0 !== null && pool0 < GB) mysql(`set global innodb_buffer_pool_size = ${pool0}`);
      if (!keepFiles) rmSync(dir, { recursive: true, force: true });
    }
  }
}

function print(e, W, r, rounds, table, fmt, schedule) {
  const bw = r.builds.map((b) => b.wallS);
  const bl = r.builds.map((b) => b.phases.loadS);
  const rows = [];
  if (r.builds.length)
    rows.push([
      `Sledge build, 2 build VUs${schedule ? `, ${schedule}` : ''}`,
      span(r.builds.map((b) => b.phases.schemaS), 1, fmt),
      span(bl, 1, fmt),
      span(r.builds.map((b) => b.phases.finishS), 1, fmt),
      span(bw, 1, fmt),
      span(r.builds.map((b) => b.clientCpuS), 1, fmt),
      span(r.builds.map((b) => b.serverCpuS), 1, fmt),
      '', '',
      span(r.builds.map((b) => b.load1), 2, fmt),
    ]);
  const ratio = (num, den) => (num.length && den.length ? `${fmt(Math.min(...num) / Math.max(...den), 2)}-${fmt(Math.max(...num) / Math.min(...den), 2)}x` : '-');
  // Paired ratios where both sides ran in the same round; else the min-max of all combinations.
  for (const v of e.variants) {
    const xs = r.bulks.filter((x) => x.variant === variantId(v));
    if (!xs.length) continue;
    const paired = (f, g) => (r.builds.length === xs.length ? span(r.builds.map((b, i) => f(b) / g(xs[i])), 2, fmt) + 'x' : ratio(r.builds.map(f), xs.map(g)));
    rows.push([
      `${v.name} of pre-generated files (2 sessions), then keys + statistics in ${v.keySessions ?? 1} session(s)`,
      span(xs.map((x) => x.schemaS), 1, fmt),
      span(xs.map((x) => x.loadS), 1, fmt),
      span(xs.map((x) => x.finishS), 1, fmt),
      span(xs.map((x) => x.wallS), 1, fmt),
      span(xs.map((x) => x.clientCpuS), 1, fmt),
      span(xs.map((x) => x.serverCpuS), 1, fmt),
      paired((b) => b.phases.loadS, (x) => x.loadS),
      paired((b) => b.wallS, (x) => x.wallS),
      span(xs.map((x) => x.load1), 2, fmt),
    ]);
  }
  console.log(
    `\n${e.name}: build of ${W} warehouses vs the engine's bulk load of the same rows from files (${rounds} round(s), min-max)\n` +
      table(['', 'schema s', 'data load s', 'keys, (routines,) statistics s', 'total wall s', 'client CPU s', 'server CPU s', 'build load / bulk load', 'build wall / (bulk + keys)', 'load avg 1 min'], rows),
  );
}

export const _test = { script, lanesOf };
