/**
 * pnpm bench pgref [--vus N] [--warehouses N] [--rampup MIN] [--duration MIN] [--rounds N] [--seed N] [--vu-loop native|typescript] [--rebuild] [--quick]
 *
 * The C-client reference for Sledge's PostgreSQL VUs (issue 17 item 3): pgbench -M prepared running
 * custom scripts (bench/pgbench-tprocc.js) that call the same five functions with the same argument
 * lists and input shapes as Sledge's VUs, with as many clients as Sledge has VUs, against the same
 * schema (database sledge_bench_pgref, built here when missing). Sledge runs and pgbench runs alternate
 * (A/B/A/B, --rounds pairs). Each side warms up for the rampup and is measured for the duration:
 * Sledge's client CPU is its process CPU over the measured window (clientCpuMsPer1000Tx); pgbench runs
 * once for the rampup (discarded) and once for the duration under /usr/bin/time (its process CPU,
 * connection setup included). The same seed gives both sides the same home warehouses.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rollbackWrapperSql, writePgbenchScripts } from './pgbench-tprocc.js';
import { refOptions, reportAB, sledgeRun, vuHomes } from './ref-common.js';

const DB = 'sledge_bench_pgref';
const WRAPPER_SCHEMA = 'sledge_pgref';
const MIX = { neworder: 10, payment: 10, delivery: 1, stocklevel: 1, orderstatus: 1 };

const psqlAs = (user, db, sql) =>
  execFileSync('psql', ['-X', '-h', '127.0.0.1', '-U', user, '-d', db, '-v', 'ON_ERROR_STOP=1', '-Atqc', sql], { env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning', PGPASSWORD: user === 'postgres' ? 'postgres' : 'bench' } })
    .toString()
    .trim();

/** New orders (Σ d_next_o_id) and the database's commit+rollback counter: Sledge's NOPM and TPM sources. */
function counters(db) {
  const [no, tx] = psqlAs('postgres', db, `select (select sum(d_next_o_id) from district), (select xact_commit + xact_rollback from pg_stat_database where datname = current_database())`).split('|');
  return { newOrders: Number(no), xacts: Number(tx) };
}

/** One pgbench run of the scripts: warm-up (discarded) then the measured run under /usr/bin/time. */
function pgbenchRun(files, { clients, threads, warmS, seconds, db }) {
  const base = ['-h', '127.0.0.1', '-U', db, '-n', '-M', 'prepared', '-c', String(clients), '-j', String(threads), ...files.flatMap((f) => ['-f', f])];
  const env = { ...process.env, PGPASSWORD: 'bench' };
  const check = (r, what) => {
    if (r.status !== 0 || /aborted/i.test(r.stderr + r.stdout)) throw new Error(`pgbench ${what} failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-5).join(' | ')}`);
  };
  if (warmS > 0) check(spawnSync('pgbench', [...base, '-T', String(warmS), db], { encoding: 'utf8', env }), 'warm-up');
  const c0 = counters(db);
  const r = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', 'pgbench', ...base, '-T', String(seconds), db], { encoding: 'utf8', env });
  const c1 = counters(db);
  check(r, 'run');
  const tx = Number(r.stdout.match(/number of transactions actually processed: (\d+)/)?.[1] ?? 0);
  const failed = Number(r.stdout.match(/number of failed transactions: (\d+)/)?.[1] ?? 0);
  const tps = Number(r.stdout.match(/tps = ([\d.]+) \(without initial connection time\)/)?.[1] ?? 0);
  const m = r.stderr.match(/CPU ([\d.]+) ([\d.]+)/);
  const cpuS = m ? Number(m[1]) + Number(m[2]) : NaN;
  return {
    seconds,
    transactions: tx,
    failed,
    tps,
    nopm: Math.round(((c1.newOrders - c0.newOrders) / seconds) * 60),
    tpm: Math.round(((c1.xacts - c0.xacts) / seconds) * 60),
    clientCpuS: cpuS,
    msPer1000: tx ? (cpuS * 1e6) / tx : NaN,
  };
}

export async function benchPgref(b) {
  const { ROOT, quick, args, withApp, submit, log } = b;
  const { vus, warehouses, rampup, duration, rounds, seed, vuLoop } = refOptions(args, quick);
  const threads = Math.min(vus, availableParallelism());
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: 'bench', database: DB, superuser: 'postgres', superuserPassword: 'postgres' };
  log(`== pgref: Sledge ${vus} VUs vs pgbench -M prepared -c ${vus} -j ${threads} calling the same functions, ${warehouses} warehouses, rampup ${rampup} min, ${duration} min measured, ${rounds} rounds A/B`);

  await withApp(async (s) => {
    const test = await s.app.inject({ method: 'POST', url: '/api/v1/targets/test', payload: { target } });
    const state = test.statusCode === 200 ? JSON.parse(test.body) : null;
    if (args.includes('--rebuild') || !state?.schema?.exists || state.schema.warehouses !== warehouses) {
      log(`   building ${warehouses} warehouses into ${DB}`);
      await submit(s, { type: 'delete', target });
      await submit(s, { type: 'build', target, tprocc: { warehouses, buildVus: 2 }, metrics: { ash: false, cpu: false } });
    }
    // The scripts call the functions variant (SELECT), which the bench's build creates; say so if the schema has procedures.
    const kinds = psqlAs('postgres', DB, `select string_agg(distinct prokind::text, '') from pg_proc where proname in ('neword','payment','delivery','slev','ostat')`);
    if (kinds !== 'f') throw new Error(`pgref: ${DB} has routines of kind '${kinds}'; the pgbench scripts call the functions variant (storedProcs off)`);
    const routineSchema = psqlAs('postgres', DB, `select n.nspname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where p.proname = 'neword'`);
    psqlAs(DB, DB, rollbackWrapperSql(WRAPPER_SCHEMA, routineSchema));
    const homes = await vuHomes(ROOT, seed, warehouses, vus);
    const dir = mkdtempSync(join(tmpdir(), 'sledge-pgref-'));
    const files = writePgbenchScripts(dir, { warehouses, homes, mix: MIX, schema: WRAPPER_SCHEMA });
    log(`   seed ${seed}: VU home warehouses ${homes.map((h) => h.homeW).join(',')}, stock-level districts ${homes.map((h) => h.stockD).join(',')}; scripts in ${dir}`);
    const runs = [];
    try {
      for (let round = 1; round <= rounds; round++) {
        log(`   round ${round}: Sledge`);
        runs.push({ round, client: 'Sledge', ...(await sledgeRun(b, s, target, { vus, rampup, duration, seed })) });
        log(`   round ${round}: pgbench`);
        runs.push({ round, client: 'pgbench', loop: 'C (libpq)', ...pgbenchRun(files, { clients: vus, threads, warmS: Math.round(rampup * 60), seconds: Math.round(duration * 60), db: DB }) });
      }
    } finally {
      psqlAs(DB, DB, `DROP SCHEMA IF EXISTS ${WRAPPER_SCHEMA} CASCADE`);
      rmSync(dir, { recursive: true, force: true });
    }
    reportAB(b, {
      section: 'pgref',
      ref: 'pgbench',
      refLabel: 'pgbench (C reference)',
      title: `PostgreSQL: Sledge vs pgbench calling the same five functions (${vus} VUs = ${vus} pgbench clients, ${warehouses} warehouses, seed ${seed}, rampup ${rampup} min, ${duration} min measured, A/B interleaved)`,
      runs,
      fields: { vus, warehouses, rampup, duration, seed, homes, threads },
    });
  }, vuLoop ? { vuLoop } : {});
}
