#!/usr/bin/env node
/**
 * pnpm bench [all|startup|process-start|datagen|pg|build16|build|build100|mariadb|pgref|mariaref|ash|viewers|tproch|async|cv|pgfn|replicas|replicas-pg|replicas-sim|chbench|script|hammerdb] [--quick] [--sf N] [--sessions N ...]
 *
 * Measures, side by side in one run, what the issues ask to be proven:
 * - startup: a worker thread's import of each package, as one file vs per file (bench/startup.js)
 * - process-start: a new process loading the app, `sledge jobs --local`, `sledge --help`, the server
 *            to listening, a replica to joined (with nats-server) (CPU, wall); with --against DIR,
 *            A/B against another built checkout (bench/process-start.js)
 * - datagen: native vs TypeScript row generation per table (worker-native/bench/datagen.mjs)
 * - pg:      PostgreSQL build of 4 warehouses with 2 build VUs (wall, rows/s, client CPU,
 *            PostgreSQL CPU), timed runs with 2, 4 and 8 VUs (NOPM, TPM, client CPU ms per 1000
 *            transactions), and pgbench -S -M prepared with 4 clients as the C-client reference
 * - build16: PostgreSQL build of 16 warehouses vs PostgreSQL's own COPY of the same rows from
 *            pre-generated files (the physical limit of a build), then the same keys + ANALYZE;
 *            `build` / `build100` (only when named) do the same for --engines pg,mariadb at
 *            --warehouses N (default 16; 100), MariaDB against LOAD DATA LOCAL INFILE (bench/build.js)
 * - mariadb: the same build and runs on MariaDB (raises innodb_buffer_pool_size online to 1 GB
 *            for the duration, says so, and restores it); each run in the native MariaDB C
 *            connector loop and in the JavaScript loop (mysql2), interleaved, at 2, 4 and 8 VUs
 *            (--rounds N repeats the pairs, alternating which loop goes first)
 * - pgref:   Sledge's PostgreSQL VUs vs pgbench -M prepared running custom scripts that call the same five
 *            functions with the same input shapes (bench/pgref.js): client CPU per transaction, A/B/A/B
 * - mariaref: the same on MariaDB against a small C client on libmariadb (bench/mariaref.js, mariaref.c)
 * - ash:     PostgreSQL 4 VUs with ASH sampling on and off (NOPM difference)
 * - viewers: a 1-VU SQLite run with 0 and 50 WebSocket viewers (--viewers N), A B B A rounds: NOPM ratio with
 *            its spread, the server's peak RSS (bench/viewers.js)
 * - tproch:  TPROC-H native vs TS generator, PostgreSQL SF 1 build vs COPY of the same files, a power
 *            run's per-query times (bench/tproch.js; run only when named or with `all`);
 *            `--engines duckdb,sqlite,postgresql`: instead, build wall and power-run geomean per engine side by side
 * - async:   10,000 sessions (100 VUs x 100 async clients) with keying and thinking time on PostgreSQL
 *            via PgBouncer and on MariaDB: NOPM vs 1.286 x sessions, Sledge RSS and CPU
 *            (bench/async.js; run only when named: it takes each database for minutes)
 * - replicas: scale-out over NATS: PostgreSQL 4 VUs local vs on two `sledge replica` processes (A/B),
 *            and one primary aggregating 10 .. 200 simulated replicas: its CPU per replica, frames/s,
 *            exactness (bench/replicas.js; only when named; replicas-pg / replicas-sim run one part)
 * - cv:      run-to-run spread: three identical timed runs as they come, then three with a fixed seed, a
 *            checkpoint/flush before each run and a warm-up rampup; NOPM/TPM, mean, CV% (bench/cv.js; run
 *            only when named or with `all`)
 * - pgfn:    server time per call of the five PostgreSQL routines (track_functions) and NOPM, the routines of
 *            a git revision (--before, default the one before issue 17 item 1) vs the working tree's, functions
 *            and procedures variants, interleaved (bench/pgfn.js; run only when named or with `all`)
 * - chbench: CH-benCHmark on PostgreSQL, 4 warehouses: NOPM with 0, 1 and 2 analytic streams, interleaved
 *            rounds, ratio to 0 streams, analytic queries per hour (bench/chbench.js; only when named or `all`)
 * - script:  the script workload vs pgbench on the same tpcb-like script, 4 clients, interleaved rounds: TPS and
 *            client CPU per transaction (bench/script.js; only when named or with `all`; --rounds N pairs)
 * - hammerdb: Sledge beside HammerDB 4.12 (HAMMERDB_HOME or /tmp/peers/HammerDB-4.12), interleaved H/S: TPROC-C
 *            on PostgreSQL and MariaDB (4 warehouses, 2/4/8 VUs: build, NOPM, TPM, client CPU, checks after each
 *            run) and TPROC-H SF 1 on PostgreSQL (build, power run per query); ratios with their spread
 *            (bench/hammerdb.js; only when named: --parts pg,mariadb,tproch --vus --pairs --rampup --duration)
 * Results are printed as tables and written to bench/results/<timestamp>.json.
 * --quick shortens every timed phase (for smoke-testing the bench itself; figures are not comparable).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
/** Flags followed by a value (`--sf 1`, `--engines pg`): their values are not section names. */
const VALUE_FLAGS = new Set(['--sf', '--sessions', '--vus', '--rampup', '--duration', '--warehouses', '--async-delay', '--user-delay', '--engines', '--rounds', '--sizes', '--pairs', '--seed', '--vu-loop', '--cv-sets', '--pgfn-variants', '--before', '--pgfn-mode', '--phase', '--files', '--db-prefix', '--bulk-variants', '--lock', '--parts', '--protocol', '--database', '--pgbench-threads', '--viewers']);
const sections = args.filter((a, i) => !a.startsWith('--') && !VALUE_FLAGS.has(args[i - 1]));
const want = (s) => sections.length === 0 || sections.includes('all') || sections.includes(s);
const results = { startedAt: new Date().toISOString(), quick, machine: machine(), sections: {} };

const { buildApp } = await import(join(ROOT, 'server/dist/app.js'));

function machine() {
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? '?';
  return { cpus: (readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm) ?? []).length, cpu, node: process.version };
}

const log = (s) => process.stderr.write(s + '\n');
const table = (head, rows) => {
  const w = head.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => String(c).padEnd(w[i])).join('  ');
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
};
const fmt = (x, d = 1) => (x === undefined || x === null || Number.isNaN(x) ? '-' : Number(x).toFixed(d));

/** CPU seconds of a process tree: the process, its reaped children, and its live children. */
function treeCpuSeconds(pid) {
  const hz = 100;
  const stat = (p) => readFileSync(`/proc/${p}/stat`, 'utf8').slice(readFileSync(`/proc/${p}/stat`, 'utf8').lastIndexOf(')') + 2).split(' ');
  const s = stat(pid);
  let ticks = Number(s[11]) + Number(s[12]) + Number(s[13]) + Number(s[14]);
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const c = stat(d);
      if (Number(c[1]) === pid) ticks += Number(c[11]) + Number(c[12]);
    } catch {
      /* exited */
    }
  }
  return ticks / hz;
}
const pidOf = (name) => {
  try {
    return Number(execFileSync('pgrep', ['-o', '-x', name]).toString().trim());
  } catch {
    return null;
  }
};

async function withApp(fn, opts = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sledge-bench-'));
  const s = await buildApp({ dataDir, logger: false, uiDir: null, ...opts });
  try {
    return await fn(s);
  } finally {
    await s.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
async function submit(s, body) {
  const r = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: body });
  const j = JSON.parse(r.body);
  if (r.statusCode !== 201) throw new Error(`${body.type}: ${r.body}`);
  for (;;) {
    // The bench runs one job at a time: wait for the engine to go idle rather than polling the job (the polling
    // ran in the measured process and counted in its client CPU: a request a second). A GET every 10 s at most
    // in case something else keeps the engine busy.
    let timer;
    await Promise.race([s.engine.idle(), new Promise((r) => (timer = setTimeout(r, 10_000)))]);
    clearTimeout(timer);
    const g = JSON.parse((await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${j.id}` })).body);
    if (['completed', 'failed', 'stopped', 'interrupted'].includes(g.status)) {
      if (g.status !== 'completed') throw new Error(`${body.type} job ${g.id} ${g.status}: ${g.error?.message}`);
      return g;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
async function output(s, id) {
  return JSON.parse((await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/output?limit=10000` })).body).lines.map((l) => l.text);
}

/** A build through the REST API, with client and server CPU measured around it. */
async function build(s, target, warehouses, buildVus, serverPid) {
  await submit(s, { type: 'delete', target });
  const srv0 = serverPid ? treeCpuSeconds(serverPid) : null;
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  const job = await submit(s, { type: 'build', target, tprocc: { warehouses, buildVus }, metrics: { ash: false, cpu: false } });
  // From the submit to the job's own end time (ms): the once-a-second poll would add 0-1 s to the wall.
  const ended = Date.parse(job.endedAt ?? '');
  const wall = ((Number.isFinite(ended) ? ended : Date.now()) - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const srv = serverPid ? treeCpuSeconds(serverPid) - srv0 : null;
  const line = (await output(s, job.id)).find((t) => t.startsWith('Build of')) ?? '';
  const rows = Number(line.match(/: (\d+) rows/)?.[1] ?? 0);
  const generator = line.match(/generator (\S+)/)?.[1] ?? '?';
  const ph = (await output(s, job.id)).find((t) => t.startsWith('Build phases:')) ?? '';
  const phases = { schemaS: Number(ph.match(/schema ([\d.]+) s/)?.[1]), loadS: Number(ph.match(/load ([\d.]+) s/)?.[1]), finishS: Number(ph.match(/statistics ([\d.]+) s/)?.[1]) };
  return { warehouses, buildVus, wallS: wall, rows, rowsPerS: rows / wall, clientCpuS: (cpu.user + cpu.system) / 1e6, serverCpuS: srv, generator, phases };
}

async function run(s, target, vus, rampup, duration, metrics = { ash: false, cpu: false }) {
  const job = await submit(s, { type: 'run', target, tprocc: { vus, rampup, duration }, metrics });
  const loop = (await output(s, job.id)).find((t) => t.startsWith('Virtual users run in')) ?? '';
  // 'Virtual users run in JavaScript (the ... driver has no native VU loop)' names 'native' too: test for JavaScript.
  return { vus, loop: /run in JavaScript/.test(loop) ? 'javascript' : 'native', ...job.result };
}

const HAMMERDB = {
  pg: { build: { wallS: 27, clientCpuS: 29, serverCpuS: 7.6 }, runs: { 2: { nopm: 110177, tpm: 253159, cpu: 28.8 }, 4: { nopm: 95989, tpm: 221451, cpu: 42.9 } }, pgbench: 8.2 },
  mariadb: { build: { wallS: 37, clientCpuS: 32 }, runs: { 2: { nopm: 56193 }, 4: { nopm: 63922, tpm: 148454, cpu: 67.6 } } },
};

// --- startup ---------------------------------------------------------------------
if (want('startup')) {
  const { benchStartup } = await import('./startup.js');
  results.sections.startup = await benchStartup({ ROOT, quick, args, table, fmt, log });
}

// --- process-start ---------------------------------------------------------------
if (want('process-start')) {
  const { benchProcessStart } = await import('./process-start.js');
  results.sections.processStart = await benchProcessStart({ ROOT, quick, args, table, fmt, log });
}

// --- datagen ---------------------------------------------------------------------
if (want('datagen')) {
  log('== datagen: native vs TypeScript generation (one thread, generation only)');
  const out = execFileSync(process.execPath, [join(ROOT, 'worker-native/bench/datagen.mjs'), '--json', ...(quick ? ['--seconds', '0.5'] : [])], { cwd: join(ROOT, 'worker-native') }).toString();
  const d = JSON.parse(out);
  results.sections.datagen = d;
  const rows = d.results.map((r) => [r.table + (r.note ? ` (${r.note})` : ''), fmt(r.ts.rowsPerSec, 0), fmt(r.native.rowsPerSec, 0), fmt(r.ratio, 1) + 'x']);
  console.log('\nRow generation, rows/s (worker-native/bench/datagen.mjs)\n' + table(['table', 'TypeScript', 'native', 'native/TS'], rows));
}

// --- PostgreSQL ---------------------------------------------------------------
const pgTarget = (db) => ({ engine: 'postgresql', host: '127.0.0.1', port: 5432, user: db, password: 'bench', database: db, superuser: 'postgres', superuserPassword: 'postgres' });
const rampup = quick ? 0.1 : 1;
const duration = quick ? 0.25 : 2;

if (want('pg')) {
  log('== pg: build 4 warehouses with 2 build VUs, runs with 2, 4 and 8 VUs, pgbench reference');
  const target = pgTarget('sledge_bench_pg');
  const pgPid = pidOf('postgres');
  await withApp(async (s) => {
    const b = await build(s, target, 4, 2, pgPid);
    const runs = [];
    for (const vus of [2, 4, 8]) {
      log(`   run ${vus} VUs: rampup ${rampup} min, ${duration} min measured`);
      runs.push(await run(s, target, vus, rampup, duration));
    }
    const pgb = pgbench(quick ? 15 : 60);
    // The same 4-VU run with the VUs in JavaScript (node-postgres) instead of the native libpq loop.
    log(`   run 4 VUs in the JavaScript loop: rampup ${rampup} min, ${duration} min measured`);
    const tsRun = await withApp((t) => run(t, target, 4, rampup, duration), { vuLoop: 'typescript' });
    runs.push(tsRun);
    results.sections.pg = { build: b, runs, pgbench: pgb, hammerdb: HAMMERDB.pg };
    console.log('\nPostgreSQL build, 4 warehouses, 2 build VUs\n' + table(
      ['', 'wall s', 'rows/s', 'client CPU s', 'PostgreSQL CPU s', 'generator'],
      [
        ['Sledge', fmt(b.wallS), fmt(b.rowsPerS, 0), fmt(b.clientCpuS), fmt(b.serverCpuS), b.generator],
        ['HammerDB 4.12 (reference)', fmt(HAMMERDB.pg.build.wallS), '-', fmt(HAMMERDB.pg.build.clientCpuS), fmt(HAMMERDB.pg.build.serverCpuS), 'Tcl'],
      ],
    ));
    console.log('\nPostgreSQL timed runs, 4 warehouses (client CPU per 1000 transactions over the measured window)\n' + table(
      ['VUs', 'VU loop', 'NOPM', 'TPM', 'TPM/NOPM', 'client ms/1000 tx', 'vs pgbench', 'HammerDB NOPM', 'NOPM vs HammerDB', 'HammerDB ms/1000', 'vs HammerDB CPU'],
      runs.map((r) => {
        // HammerDB 4.12 was measured at 2 and 4 VUs only.
        const h = HAMMERDB.pg.runs[r.vus] ?? {};
        return [r.vus, r.loop, r.nopm, r.tpm, fmt(r.tpm / r.nopm, 2), fmt(r.clientCpuMsPer1000Tx, 1), fmt(r.clientCpuMsPer1000Tx / pgb.msPer1000, 2) + 'x', h.nopm ?? '-', h.nopm ? fmt(((r.nopm - h.nopm) / h.nopm) * 100, 1) + '%' : '-', h.cpu ?? '-', h.cpu ? fmt(r.clientCpuMsPer1000Tx / h.cpu, 2) + 'x' : '-'];
      }),
    ));
    console.log(`\npgbench -S -M prepared -c 4 -j 2 -T ${pgb.seconds}: ${fmt(pgb.tps, 0)} tps, client CPU ${fmt(pgb.msPer1000, 2)} ms per 1000 transactions (HammerDB reference run: ${HAMMERDB.pg.pgbench})`);
  });
}

function pgbench(seconds) {
  const db = 'sledge_bench_pgbench';
  const psql = (sql) => execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', sql]).toString();
  if (!psql(`select 1 from pg_database where datname='${db}'`).trim()) {
    psql(`create database ${db}`);
    execFileSync('pgbench', ['-h', '127.0.0.1', '-U', 'postgres', '-i', '-s', '10', '-q', db], { stdio: 'ignore' });
  }
  log(`   pgbench -S -M prepared -c 4 -j 2 -T ${seconds}`);
  const r = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', 'pgbench', '-h', '127.0.0.1', '-U', 'postgres', '-S', '-M', 'prepared', '-c', '4', '-j', '2', '-T', String(seconds), db], { encoding: 'utf8' });
  const tx = Number(r.stdout.match(/number of transactions actually processed: (\d+)/)?.[1] ?? 0);
  const tps = Number(r.stdout.match(/tps = ([\d.]+)/)?.[1] ?? 0);
  const m = r.stderr.match(/CPU ([\d.]+) ([\d.]+)/);
  const cpuS = m ? Number(m[1]) + Number(m[2]) : NaN;
  return { seconds, tx, tps, cpuS, msPer1000: tx ? (cpuS * 1e6) / tx : NaN };
}

// --- build16 / build100 / build: build vs the engine's own bulk load of pre-generated files (bench/build.js) ---
if (want('build16') || sections.some((x) => x === 'build' || x === 'build100')) {
  const { benchBuild } = await import('./build.js');
  await benchBuild({ ROOT, quick, args, sections, withApp, submit, build, table, fmt, log, treeCpuSeconds, pidOf, results });
}

// --- MariaDB ---------------------------------------------------------------------
if (want('mariadb')) {
  log('== mariadb: build 4 warehouses with 2 build VUs, runs with 2, 4 and 8 VUs (native loop and mysql2 back to back)');
  const mysql = (sql) => execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-e', sql]).toString().trim();
  const pool0 = Number(mysql('select @@innodb_buffer_pool_size'));
  const GB = 1024 * 1024 * 1024;
  if (pool0 < GB) {
    log(`   raising innodb_buffer_pool_size online from ${pool0 / 1048576} MB to 1024 MB for the bench (restored after)`);
    mysql(`set global innodb_buffer_pool_size = ${GB}`);
  }
  const settings = {
    innodb_buffer_pool_size_mb: Number(mysql('select @@innodb_buffer_pool_size')) / 1048576,
    innodb_flush_log_at_trx_commit: mysql('select @@innodb_flush_log_at_trx_commit'),
    innodb_log_file_size_mb: Number(mysql('select @@innodb_log_file_size')) / 1048576,
    version: mysql('select version()'),
  };
  const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'sledge_bench_maria' };
  const rounds = Math.max(1, Number(args[args.indexOf('--rounds') + 1]) || 1);
  try {
    await withApp(async (s) => {
      const b = await build(s, target, 4, 2, pidOf('mariadbd'));
      const runs = [];
      // The native loop (auto) and the JavaScript loop (mysql2) back to back at each VU count, so both see the same machine load.
      await withApp(async (js) => {
        for (let round = 0; round < rounds; round++) {
          for (const vus of [2, 4, 8]) {
            const order = round % 2 === 0 ? [s, js] : [js, s];
            for (const app of order) {
              log(`   run ${vus} VUs (${app === s ? 'native loop if built' : 'JavaScript loop'}): rampup ${rampup} min, ${duration} min measured`);
              runs.push({ ...(await run(app, target, vus, rampup, duration)), load1: loadavg()[0] });
            }
          }
        }
      }, { vuLoop: 'typescript' });
      results.sections.mariadb = { settings, build: b, runs, hammerdb: HAMMERDB.mariadb };
      console.log(`\nMariaDB ${settings.version} (buffer pool ${settings.innodb_buffer_pool_size_mb} MB, flush_log_at_trx_commit ${settings.innodb_flush_log_at_trx_commit}, redo ${settings.innodb_log_file_size_mb} MB)`);
      console.log(table(['build', 'wall s', 'rows/s', 'client CPU s', 'MariaDB CPU s', 'generator'], [
        ['Sledge, 4 warehouses, 2 build VUs', fmt(b.wallS), fmt(b.rowsPerS, 0), fmt(b.clientCpuS), fmt(b.serverCpuS), b.generator],
        ['HammerDB 4.12 (reference)', '37.0', '-', '32.0', '-', 'Tcl'],
      ]));
      console.log(table(['VUs', 'VU loop', 'NOPM', 'TPM', 'TPM/NOPM', 'client ms/1000 tx', 'load avg 1 min', 'HammerDB NOPM', 'NOPM vs HammerDB', 'HammerDB ms/1000'], runs.map((r) => {
        const h = HAMMERDB.mariadb.runs[r.vus] ?? {};
        return [r.vus, r.loop, r.nopm, r.tpm, fmt(r.tpm / r.nopm, 2), fmt(r.clientCpuMsPer1000Tx, 1), fmt(r.load1, 2), h.nopm ?? '-', h.nopm ? fmt(((r.nopm - h.nopm) / h.nopm) * 100, 1) + '%' : '-', h.cpu ?? '-'];
      })));
      await submit(s, { type: 'delete', target });
    });
  } finally {
    if (pool0 < GB) mysql(`set global innodb_buffer_pool_size = ${pool0}`);
  }
}

// --- script: the script workload vs pgbench on tpcb-like (only when named or with `all`) ---
if (sections.includes('script') || sections.includes('all')) {
  const { benchScript } = await import('./script.js');
  await benchScript({ quick, args, withApp, submit, output, table, fmt, log, results });
}

// --- pgref / mariaref: C-client references calling the same routines ---------------
if (want('pgref')) {
  const { benchPgref } = await import('./pgref.js');
  await benchPgref({ ROOT, quick, args, withApp, submit, output, table, fmt, log, results });
}
if (want('mariaref')) {
  const { benchMariaref } = await import('./mariaref.js');
  await benchMariaref({ ROOT, quick, args, withApp, submit, output, table, fmt, log, results });
}

// --- pgfn: server time of the PostgreSQL routines, before vs after (only when named) ----
if (sections.includes('pgfn') || sections.includes('all')) {
  const { benchPgfn } = await import('./pgfn.js');
  await benchPgfn({ ROOT, quick, args, withApp, submit, output, table, fmt, log, results });
}

// --- cv: run-to-run spread (only when named: six runs per engine) ---------------------
if (sections.includes('cv') || sections.includes('all')) {
  const { benchCv } = await import('./cv.js');
  await benchCv({ ROOT, quick, args, withApp, submit, output, table, fmt, log, results });
}

// --- tproch: TPROC-H generator, build vs COPY, power run (only when named: SF 1 takes minutes) ---
if (sections.includes('tproch') || sections.includes('all')) {
  const { benchTproch } = await import('./tproch.js');
  await benchTproch({ ROOT, quick, args, withApp, submit, output, table, fmt, log, treeCpuSeconds, pidOf, results });
}

// --- chbench: interference of analytic streams on TPROC-C (only when named: minutes of runs) ---
if (sections.includes('chbench') || sections.includes('all')) {
  const { benchChbench } = await import('./chbench.js');
  await benchChbench({ quick, args, withApp, submit, table, fmt, log, results });
}

// --- async: fixed throughput at 10,000 sessions (only when named: minutes per engine) ---
if (sections.includes('async')) {
  const { benchAsync } = await import('./async.js');
  await benchAsync({ ROOT, quick, args, withApp, submit, output, table, fmt, log, treeCpuSeconds, pidOf, results });
}

// --- replicas: scale-out over NATS (only when named: PostgreSQL A/B runs and simulated replicas) ---
if (sections.some((x) => x === 'replicas' || x === 'replicas-pg' || x === 'replicas-sim')) {
  const { benchReplicas } = await import('./replicas.js');
  await benchReplicas({ ROOT, quick, args, sections, withApp, submit, output, table, fmt, log, treeCpuSeconds, pidOf, results, pgTarget });
}

// --- hammerdb: Sledge beside HammerDB 4.12, interleaved (only when named: minutes per part) ---
if (sections.includes('hammerdb')) {
  const { benchHammerdb } = await import('./hammerdb.js');
  await benchHammerdb({ ROOT, quick, args, withApp, submit, output, table, fmt, log, treeCpuSeconds, results });
}

// --- WebSocket viewers ----------------------------------------------------------
if (want('viewers')) {
  const { benchViewers } = await import('./viewers.js');
  results.sections.viewers = await benchViewers({ ROOT, quick, args, table, fmt, log });
}

// --- ASH overhead ----------------------------------------------------------------
if (want('ash')) {
  log('== ash: PostgreSQL 4 VUs with ASH sampling on and off');
  const target = pgTarget('sledge_bench_pg');
  await withApp(async (s) => {
    const state = JSON.parse((await s.app.inject({ method: 'POST', url: '/api/v1/targets/test', payload: { target } })).body);
    if (!state.schema?.exists) await build(s, target, 4, 2, null);
    const d = quick ? 0.25 : 1;
    const pairs = [];
    for (const ash of [true, false, true, false]) {
      log(`   run 4 VUs, ASH ${ash ? 'on' : 'off'}: rampup ${quick ? 0.1 : 0.5} min, ${d} min`);
      const job = await submit(s, { type: 'run', target, tprocc: { vus: 4, rampup: quick ? 0.1 : 0.5, duration: d }, metrics: { ash, cpu: false } });
      pairs.push({ ash, nopm: job.result.nopm, tpm: job.result.tpm });
    }
    const mean = (on) => pairs.filter((p) => p.ash === on).reduce((a, p) => a + p.nopm, 0) / 2;
    const on = mean(true);
    const off = mean(false);
    results.sections.ash = { runs: pairs, meanOn: on, meanOff: off, diffPct: ((on - off) / off) * 100 };
    console.log('\nASH sampling overhead, PostgreSQL 4 VUs, alternating on/off\n' + table(['ASH', 'NOPM', 'TPM'], pairs.map((p) => [p.ash ? 'on' : 'off', p.nopm, p.tpm])));
    console.log(`mean NOPM on ${fmt(on, 0)} vs off ${fmt(off, 0)}: ${fmt(((on - off) / off) * 100, 2)}%`);
  });
}

mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
const file = join(ROOT, 'bench/results', results.startedAt.replace(/[:.]/g, '-') + '.json');
writeFileSync(file, JSON.stringify(results, null, 2));
log(`\nresults written to ${file}`);
process.exit(0);
