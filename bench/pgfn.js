/**
 * pnpm bench pgfn [--pgfn-variants functions,procedures] [--vus 2,4] [--rounds N] [--rampup MIN] [--duration MIN]
 *                 [--warehouses N] [--before REV] [--seed N] [--pgfn-mode runs|single|both] [--rebuild] [--quick] [--db NAME]
 *
 * Server-side cost of the PostgreSQL TPROC-C routines (issue 17 item 1): the routines of revision --before
 * (default 6b8f45a, before the issue's changes; read with `git show REV:packages/sql/postgresql/tprocc/<file>`)
 * against the working tree's, on the same schema, interleaved (before/after, then after/before, --rounds
 * pairs per VU count and variant). Before each run the bench installs the side's routines (functions.sql,
 * or procedures.sql with target storedProcs on) as the TPC user, checkpoints and resets the database's
 * statistics; the database has track_functions = pl, so after the run pg_stat_user_functions gives each
 * routine's calls and server time (self_time: the time inside the routine, its statements included).
 * Reports NOPM/TPM per run and µs per call per routine with the spread (min-max) per side, and the
 * after/before ratios.
 * --pgfn-mode single (or both) measures each routine alone instead: one pgbench client (-M prepared) calls
 * one routine N times (new order with 10 lines, payment by name, delivery, stock level, order status by
 * name; the functions variant), before and after alternating for --rounds rounds; µs per call from
 * pg_stat_user_functions. No other session competes for the routine's rows, so this is the routine's
 * own cost (CPU and buffer access), with less noise than the mixed runs.
 * Database: sledge_pgfn_bench, or --db NAME (also its owner role), built when missing or of another warehouse count;
 * it is left with the working tree's functions.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { opt, spread } from './ref-common.js';

// The database and its owner role (--db; sledge_pgfn_bench by default).
let DB = 'sledge_pgfn_bench';
const ROUTINES = ['neword', 'payment', 'delivery', 'slev', 'ostat'];
const FILES = { functions: 'functions.sql', procedures: 'procedures.sql' };
const SQL_DIR = 'packages/sql/postgresql/tprocc';

const psql = (user, args) =>
  execFileSync('psql', ['-X', '-h', '127.0.0.1', '-U', user, '-d', DB, '-v', 'ON_ERROR_STOP=1', '-Atq', ...args], {
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning', PGPASSWORD: user === 'postgres' ? 'postgres' : 'bench' },
    maxBuffer: 16 * 1024 * 1024,
  }).toString().trim();
const su = (sql) => psql('postgres', ['-c', sql]);

/** The routines of one side: the working tree's file, or the file at a git revision. */
function routineSql(ROOT, variant, side, before) {
  const rel = `${SQL_DIR}/${FILES[variant]}`;
  if (side === 'after') return readFileSync(join(ROOT, rel), 'utf8');
  try {
    return execFileSync('git', ['-C', ROOT, 'show', `${before}:${rel}`], { maxBuffer: 16 * 1024 * 1024 }).toString();
  } catch (e) {
    throw new Error(`pgfn: cannot read ${rel} at revision ${before} (git show): ${e.message.split('\n')[0]}`);
  }
}

function install(sql) {
  execFileSync('psql', ['-X', '-h', '127.0.0.1', '-U', DB, '-d', DB, '-v', 'ON_ERROR_STOP=1', '-q', '-f', '-'], {
    input: sql,
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning', PGPASSWORD: 'bench' },
  });
}

/** Calls and µs per call (self_time) of the five routines since the last reset. */
function routineStats() {
  const out = {};
  const rows = su(`select funcname, calls, self_time from pg_stat_user_functions where funcname in (${ROUTINES.map((r) => `'${r}'`).join(',')})`);
  for (const line of rows.split('\n').filter(Boolean)) {
    const [name, calls, selfMs] = line.split('|');
    out[name] = { calls: Number(calls), usPerCall: Number(calls) ? (Number(selfMs) * 1000) / Number(calls) : NaN };
  }
  return out;
}

const SYL = `(ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING']::varchar[])`;
const LAST = `${SYL}[1 + :ln / 100] || ${SYL}[1 + (:ln / 10) % 10] || ${SYL}[1 + :ln % 10]`;
const NURAND_LAST = '\\set ln ((random(0, 255) | random(0, 999)) + 123) % 1000';

/** One pgbench script per routine (functions variant) and the calls each single-session pass makes. */
function singleScripts(dir, W) {
  const lines = 10;
  const items = Array.from({ length: lines }, (_, i) => `\\set i${i + 1} random(1, 100000)\n\\set q${i + 1} random(1, 10)`).join('\n');
  const arr = (p) => `ARRAY[${Array.from({ length: lines }, (_, i) => `:${p}${i + 1}`).join(', ')}]::integer[]`;
  const scripts = {
    neword: { calls: 2000, sql: `\\set w random(1, ${W})\n\\set d random(1, 10)\n\\set c random(1, 3000)\n${items}\nSELECT neword(:w, :d, :c, ${arr('i')}, ARRAY[${Array(lines).fill(':w').join(', ')}]::integer[], ${arr('q')});\n` },
    payment: { calls: 4000, sql: `\\set w random(1, ${W})\n\\set d random(1, 10)\n${NURAND_LAST}\nSELECT payment(:w, :d, :w, :d, 1, true, ${LAST}, 100.00);\n` },
    delivery: { calls: 300, sql: `\\set w random(1, ${W})\n\\set k random(1, 10)\nSELECT delivery(:w, :k);\n` },
    slev: { calls: 2000, sql: `\\set w random(1, ${W})\n\\set d random(1, 10)\n\\set t random(10, 20)\nSELECT slev(:w, :d, :t);\n` },
    ostat: { calls: 3000, sql: `\\set w random(1, ${W})\n\\set d random(1, 10)\n${NURAND_LAST}\nSELECT count(*) FROM ostat(:w, :d, 1, true, ${LAST});\n` },
  };
  for (const [r, x] of Object.entries(scripts)) writeFileSync((x.file = join(dir, `${r}.sql`)), x.sql);
  return scripts;
}

/** One pass: each routine alone from one pgbench client; µs per call (self_time) per routine. */
function singlePass(scripts) {
  const out = {};
  for (const [r, x] of Object.entries(scripts)) {
    su('SELECT pg_stat_reset()');
    execFileSync('pgbench', ['-h', '127.0.0.1', '-U', DB, '-n', '-M', 'prepared', '-c', '1', '-t', String(x.calls), '-f', x.file, DB], {
      env: { ...process.env, PGPASSWORD: 'bench' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    execFileSync('sleep', ['0.5']);
    out[r] = routineStats()[r];
  }
  return out;
}

export async function benchPgfn(b) {
  const { ROOT, quick, args, withApp, submit, table, fmt, log, results } = b;
  const variants = String(opt(args, 'pgfn-variants', 'functions,procedures')).split(',');
  const vusList = String(opt(args, 'vus', '2,4')).split(',').map(Number);
  const rounds = Number(opt(args, 'rounds', quick ? 1 : 3));
  const rampup = Number(opt(args, 'rampup', quick ? 0.1 : 0.25));
  const duration = Number(opt(args, 'duration', quick ? 0.25 : 1));
  const warehouses = Number(opt(args, 'warehouses', quick ? 2 : 4));
  const before = String(opt(args, 'before', '6b8f45a'));
  const seed = Number(opt(args, 'seed', 20261124));
  const mode = String(opt(args, 'pgfn-mode', 'runs'));
  DB = String(opt(args, 'db', DB));
  if (!/^[a-z_][a-z0-9_]*$/.test(DB)) throw new Error('pgfn: --db takes lower-case letters, digits and _ only');
  for (const v of variants) if (!FILES[v]) throw new Error(`pgfn: unknown variant ${v} (functions, procedures)`);
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: 'bench', database: DB, superuser: 'postgres', superuserPassword: 'postgres' };
  log(`== pgfn: routines of ${before} (before) vs the working tree (after), ${variants.join(' and ')}, ${vusList.join(' and ')} VUs, ${rounds} rounds, rampup ${rampup} min, ${duration} min measured`);
  const runs = [];
  const singleRuns = [];
  await withApp(async (s) => {
    const test = await s.app.inject({ method: 'POST', url: '/api/v1/targets/test', payload: { target } });
    const state = test.statusCode === 200 ? JSON.parse(test.body) : null;
    if (args.includes('--rebuild') || !state?.schema?.exists || state.schema.warehouses !== warehouses) {
      log(`   building ${warehouses} warehouses into ${DB}`);
      await submit(s, { type: 'delete', target });
      await submit(s, { type: 'build', target, tprocc: { warehouses, buildVus: 2 }, metrics: { ash: false, cpu: false } });
    }
    su(`ALTER DATABASE ${DB} SET track_functions = 'pl'`);
    try {
      if (mode === 'single' || mode === 'both') {
        const dir = mkdtempSync(join(tmpdir(), 'sledge-pgfn-'));
        try {
          const scripts = singleScripts(dir, warehouses);
          const sql = { before: routineSql(ROOT, 'functions', 'before', before), after: routineSql(ROOT, 'functions', 'after', before) };
          for (let round = 1; round <= rounds; round++) {
            for (const side of round % 2 ? ['before', 'after'] : ['after', 'before']) {
              install(sql[side]);
              const load1 = loadavg()[0];
              log(`   single session, round ${round}: ${side} (load ${fmt(load1, 2)})`);
              singleRuns.push({ round, side, load1, routines: singlePass(scripts) });
            }
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
      for (const variant of mode === 'single' ? [] : variants) {
        const sql = { before: routineSql(ROOT, variant, 'before', before), after: routineSql(ROOT, variant, 'after', before) };
        for (const vus of vusList) {
          for (let round = 1; round <= rounds; round++) {
            for (const side of round % 2 ? ['before', 'after'] : ['after', 'before']) {
              install(sql[side]);
              su('CHECKPOINT');
              su('SELECT pg_stat_reset()');
              const load1 = loadavg()[0];
              log(`   ${variant}, ${vus} VUs, round ${round}: ${side} (load ${fmt(load1, 2)})`);
              const job = await submit(s, {
                type: 'run',
                target,
                seed,
                tprocc: { vus, rampup, duration, schema: { storedProcs: variant === 'procedures' } },
                metrics: { ash: false, cpu: false },
              });
              await new Promise((r) => setTimeout(r, 1500)); // the VU sessions' statistics reach the collector as they exit
              runs.push({ variant, vus, round, side, nopm: job.result.nopm, tpm: job.result.tpm, load1, routines: routineStats() });
            }
          }
        }
      }
    } finally {
      install(routineSql(ROOT, 'functions', 'after', before));
      su(`ALTER DATABASE ${DB} RESET track_functions`);
    }
  });

  const summary = [];
  if (singleRuns.length) {
    const rows = ROUTINES.map((r) => {
      const bs = spread(singleRuns.filter((x) => x.side === 'before').map((x) => x.routines[r]?.usPerCall));
      const as = spread(singleRuns.filter((x) => x.side === 'after').map((x) => x.routines[r]?.usPerCall));
      summary.push({ variant: 'functions', mode: 'single', metric: r, before: bs, after: as, ratio: as.mean / bs.mean });
      return [`${r} µs/call`, `${fmt(bs.mean, 1)} (${fmt(bs.min, 1)}-${fmt(bs.max, 1)})`, `${fmt(as.mean, 1)} (${fmt(as.min, 1)}-${fmt(as.max, 1)})`, fmt(as.mean / bs.mean, 2)];
    });
    console.log(`\nPostgreSQL functions, one session per routine (pgbench -c 1), ${warehouses} warehouses: routines of ${before} vs working tree, ${rounds} interleaved rounds (mean, min-max)\n` + table(['', 'before', 'after', 'after/before'], rows));
    console.log(table(['round', 'side', 'load', ...ROUTINES.map((r) => `${r} µs`)], singleRuns.map((x) => [x.round, x.side, fmt(x.load1, 2), ...ROUTINES.map((r) => fmt(x.routines[r]?.usPerCall, 1))])));
  }
  for (const variant of mode === 'single' ? [] : variants) {
    for (const vus of vusList) {
      const of = (side) => runs.filter((r) => r.variant === variant && r.vus === vus && r.side === side);
      const rows = [];
      for (const metric of ['nopm', 'tpm', ...ROUTINES]) {
        const val = (r) => (metric === 'nopm' || metric === 'tpm' ? r[metric] : r.routines[metric]?.usPerCall);
        const bs = spread(of('before').map(val));
        const as = spread(of('after').map(val));
        summary.push({ variant, vus, metric, before: bs, after: as, ratio: as.mean / bs.mean });
        const d = metric === 'nopm' || metric === 'tpm' ? 0 : 1;
        rows.push([metric === 'nopm' || metric === 'tpm' ? metric.toUpperCase() : `${metric} µs/call`, `${fmt(bs.mean, d)} (${fmt(bs.min, d)}-${fmt(bs.max, d)})`, `${fmt(as.mean, d)} (${fmt(as.min, d)}-${fmt(as.max, d)})`, fmt(as.mean / bs.mean, 2)]);
      }
      console.log(`\nPostgreSQL ${variant}, ${vus} VUs, ${warehouses} warehouses: routines of ${before} vs working tree, ${rounds} interleaved pairs (mean, min-max)\n` + table(['', 'before', 'after', 'after/before'], rows));
    }
  }
  if (runs.length) console.log('\nruns\n' + table(
    ['variant', 'VUs', 'round', 'side', 'load', 'NOPM', 'TPM', ...ROUTINES.map((r) => `${r} µs`)],
    runs.map((r) => [r.variant, r.vus, r.round, r.side, fmt(r.load1, 2), r.nopm, r.tpm, ...ROUTINES.map((x) => fmt(r.routines[x]?.usPerCall, 1))]),
  ));
  results.sections.pgfn = { before, mode, variants, vus: vusList, rounds, rampup, duration, warehouses, seed, runs, singleRuns, summary };
}
