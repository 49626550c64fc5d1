/**
 * pnpm bench mariaref [--vus N] [--warehouses N] [--rampup MIN] [--duration MIN] [--rounds N] [--seed N] [--vu-loop native|typescript] [--database NAME] [--drop] [--rebuild] [--quick]
 *
 * The C-client reference for Sledge's MariaDB VUs (issue 17 item 3): bench/mariaref.c, compiled here
 * against libmariadb (libmariadb-dev; the section says so and is skipped when mariadb_config is missing),
 * calls the same five procedures with the same argument lists and input shapes as Sledge's VUs (one
 * text-protocol CALL per transaction, as Sledge's default), one connection per VU, against the same
 * schema (database sledge_bench_mariaref, or --database NAME; built here when missing, dropped after with --drop). mysqlslap is not used: it replays a
 * fixed query list (no inputs drawn per transaction, no timed run, no rollback count).
 * Sledge runs and C runs alternate (A/B/A/B). Both warm up for the rampup and are measured for the
 * duration; the C client's CPU is its process CPU (getrusage, all threads) over that window.
 * Like the mariadb section, innodb_buffer_pool_size is raised online to 1 GB for the section and restored.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { opt, refOptions, reportAB, sledgeRun, vuHomes } from './ref-common.js';

let DB = 'sledge_bench_mariaref';
const mysql = (sql, db) => execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-B', ...(db ? ['-D', db] : []), '-e', sql]).toString().trim();

/** New orders (Σ d_next_o_id) and Com_commit + Com_rollback: Sledge's NOPM and TPM sources on MariaDB. */
function counters() {
  const no = Number(mysql('select coalesce(sum(d_next_o_id), 0) from district', DB));
  const tx = mysql("show global status where Variable_name in ('Com_commit', 'Com_rollback')")
    .split('\n')
    .reduce((a, l) => a + Number(l.split('\t')[1]), 0);
  return { newOrders: no, xacts: tx };
}

/** Compiles mariaref.c into a temp dir; null (with the reason) when libmariadb's headers are missing. */
function compile(ROOT, log) {
  let flags;
  try {
    flags = execFileSync('mariadb_config', ['--cflags', '--libs']).toString().trim().split(/\s+/);
  } catch {
    log('   mariaref skipped: mariadb_config not found (apt-get install libmariadb-dev)');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sledge-mariaref-'));
  const bin = join(dir, 'mariaref');
  execFileSync('gcc', ['-O2', '-pthread', '-o', bin, join(ROOT, 'bench/mariaref.c'), ...flags], { stdio: ['ignore', 'ignore', 'inherit'] });
  return { dir, bin };
}

/** One run of the C client; the server's counters are read when it says the window starts and ends. */
function cRun(bin, { homes, warehouses, warmS, seconds, seed }) {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, ['127.0.0.1', '3306', 'root', '', DB, String(warmS), String(seconds), String(warehouses), homes.map((h) => h.homeW).join(','), homes.map((h) => h.stockD).join(','), String(seed)]);
    let out = '';
    let err = '';
    let c0;
    let c1;
    p.stdout.on('data', (d) => {
      out += d;
      if (!c0 && out.includes('window start\n')) c0 = counters();
      if (!c1 && out.includes('window end\n')) c1 = counters();
    });
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`mariaref exited ${code}: ${err.trim()}`));
      const j = JSON.parse(out.trim().split('\n').pop());
      const tx = j.commits + j.rollbacks;
      resolve({
        seconds: j.seconds,
        transactions: tx,
        errors: j.errors,
        tps: tx / j.seconds,
        nopm: Math.round(((c1.newOrders - c0.newOrders) / j.seconds) * 60),
        tpm: Math.round(((c1.xacts - c0.xacts) / j.seconds) * 60),
        clientCpuS: j.cpuS,
        msPer1000: tx ? (j.cpuS * 1e6) / tx : NaN,
      });
    });
  });
}

export async function benchMariaref(b) {
  const { ROOT, quick, args, withApp, submit, log } = b;
  const { vus, warehouses, rampup, duration, rounds, seed, vuLoop } = refOptions(args, quick);
  DB = opt(args, 'database', DB);
  if (!/^[A-Za-z0-9_]+$/.test(DB)) throw new Error(`mariaref: --database ${DB}: use letters, digits and underscores only`);
  log(`== mariaref: Sledge ${vus} VUs vs a C client on libmariadb calling the same procedures, ${warehouses} warehouses, rampup ${rampup} min, ${duration} min measured, ${rounds} rounds A/B`);
  const c = compile(ROOT, log);
  if (!c) return;
  const GB = 1024 * 1024 * 1024;
  const pool0 = Number(mysql('select @@innodb_buffer_pool_size'));
  if (pool0 < GB) {
    log(`   raising innodb_buffer_pool_size online from ${pool0 / 1048576} MB to 1024 MB for the section (restored after)`);
    mysql(`set global innodb_buffer_pool_size = ${GB}`);
  }
  const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: DB };
  try {
    await withApp(async (s) => {
      const test = await s.app.inject({ method: 'POST', url: '/api/v1/targets/test', payload: { target } });
      const state = test.statusCode === 200 ? JSON.parse(test.body) : null;
      if (args.includes('--rebuild') || !state?.schema?.exists || state.schema.warehouses !== warehouses) {
        log(`   building ${warehouses} warehouses into ${DB}`);
        await submit(s, { type: 'delete', target });
        await submit(s, { type: 'build', target, tprocc: { warehouses, buildVus: 2 }, metrics: { ash: false, cpu: false } });
      }
      const homes = await vuHomes(ROOT, seed, warehouses, vus);
      log(`   seed ${seed}: VU home warehouses ${homes.map((h) => h.homeW).join(',')}, stock-level districts ${homes.map((h) => h.stockD).join(',')}`);
      const runs = [];
      for (let round = 1; round <= rounds; round++) {
        log(`   round ${round}: Sledge`);
        runs.push({ round, client: 'Sledge', ...(await sledgeRun(b, s, target, { vus, rampup, duration, seed })), load1: loadavg()[0] });
        log(`   round ${round}: C client`);
        runs.push({ round, client: 'C (libmariadb)', loop: 'C', ...(await cRun(c.bin, { homes, warehouses, warmS: Math.round(rampup * 60), seconds: Math.round(duration * 60), seed })), load1: loadavg()[0] });
      }
      reportAB(b, {
        section: 'mariaref',
        ref: 'C (libmariadb)',
        refLabel: 'C client (reference)',
        title: `MariaDB: Sledge vs a C client (libmariadb) calling the same five procedures (${vus} VUs = ${vus} connections, ${warehouses} warehouses, seed ${seed}, rampup ${rampup} min, ${duration} min measured, A/B interleaved)`,
        runs,
        fields: { vus, warehouses, rampup, duration, seed, homes },
      });
    }, vuLoop ? { vuLoop } : {});
  } finally {
    if (args.includes('--drop')) mysql(`drop database if exists ${DB}`);
    if (pool0 < GB) mysql(`set global innodb_buffer_pool_size = ${pool0}`);
    rmSync(c.dir, { recursive: true, force: true });
  }
}
