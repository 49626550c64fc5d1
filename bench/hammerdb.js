/**
 * pnpm bench hammerdb [--quick] [--parts pg,mariadb,tproch] [--vus 2,4,8] [--pairs N] [--rampup MIN] [--duration MIN] [--warehouses N]
 *                     [--db-prefix NAME] [--keep] [--reuse] [--server-stats]
 *
 * Sledge beside HammerDB 4.12 on the same servers, interleaved (H, S, then S, H, ...), so both see the same
 * machine load:
 * - pg / mariadb: TPROC-C build of 4 warehouses with 2 build VUs (wall, client CPU), then timed runs at
 *   2, 4 and 8 VUs (NOPM, TPM, client CPU per 1000 transactions over the measured window), each run
 *   followed by the tool's own consistency check (HammerDB `checkschema`, Sledge's check job);
 * - tproch: TPROC-H SF 1 on PostgreSQL, one build each (wall, client CPU), then --pairs interleaved power
 *   runs (one query set each, the same DOP, no refresh): the seconds of each query, the geomean per pair.
 * HammerDB runs from our own Tcl scripts (its documented verbs dbset/diset/vuset/buildschema/loadscript/
 * vucreate/vurun/vudestroy/checkschema) written to a temp dir; Sledge runs in this process through its
 * REST API as the other sections do. Client CPU = user+sys of the client process over the measured window:
 * for HammerDB the hammerdbcli process (its VUs are threads of it) and its children, sampled when its
 * monitor VU prints the start and end of the window; for Sledge the server process's own measure.
 * Transactions = TPM x measured minutes for both (commits + rollbacks counted by the engine, the same query
 * on both sides), so the per-1000 figure does not depend on how each client counts.
 * HammerDB is found through HAMMERDB_HOME or /tmp/peers/HammerDB-4.12; without it the section says how to
 * build it (../shared/tools/peers/README.md) and measures nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { opt, sledgeRun, spread } from './ref-common.js';

const DEFAULT_HOMES = ['/tmp/peers/HammerDB-4.12'];
const PREFIX = 'bench_hdb';
const PSQL = ['-X', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1'];
const psql = (sql) => execFileSync('psql', [...PSQL, '-Atc', sql], { env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } }).toString().trim();
const maria = (sql) => execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-e', sql]).toString().trim();

/** HammerDB's CLI directory: HAMMERDB_HOME, else the peers harness's place; null when neither has hammerdbcli. */
export function findHammerdb(env = process.env) {
  const homes = env.HAMMERDB_HOME ? [env.HAMMERDB_HOME] : DEFAULT_HOMES;
  return homes.find((h) => existsSync(join(h, 'hammerdbcli'))) ?? null;
}

const HOW_TO_BUILD = (asked) =>
  `HammerDB's CLI was not found (${asked ? `HAMMERDB_HOME=${asked} has no hammerdbcli` : 'HAMMERDB_HOME is not set and /tmp/peers/HammerDB-4.12 has no hammerdbcli'}).\n` +
  'Build HammerDB 4.12 as ../shared/tools/peers/README.md says: fetch github:TPC-Council/HammerDB and github:sm-shaw/pgtclng,\n' +
  'then `HDB_GIT=<HammerDB git dir> PGTCL_GIT=<pgtclng git dir> bash ../shared/tools/peers/build-hammerdb.sh --smoke`,\n' +
  'or point HAMMERDB_HOME at a directory holding hammerdbcli. Nothing was measured.';

/** The options of the section; bad values stop it before anything runs. */
export function hammerdbOptions(args, quick) {
  const list = (name, def) => String(opt(args, name, def)).split(',').map((x) => x.trim()).filter(Boolean);
  const o = {
    parts: list('parts', 'pg,mariadb,tproch'),
    vus: list('vus', quick ? '4' : '2,4,8').map(Number),
    pairs: Number(opt(args, 'pairs', quick ? 1 : 3)),
    rampup: Number(opt(args, 'rampup', quick ? 0 : 1)),
    duration: Number(opt(args, 'duration', quick ? 1 : 2)),
    warehouses: Number(opt(args, 'warehouses', 4)),
    // Database (and PostgreSQL role) names start with this; give each session its own on a shared server.
    dbPrefix: String(opt(args, 'db-prefix', PREFIX)),
    // TPROC-C: --keep leaves both schemas after the part; --reuse runs on the schemas a --keep left
    // (no builds) when both exist; --pairs 0 builds only (with --keep, to run later with --reuse).
    keep: args.includes('--keep'),
    reuse: args.includes('--reuse'),
    // PostgreSQL TPROC-C: per run, the routines' calls and server time (track_functions = pl on both
    // databases, statistics reset before each run), each table's updates and HOT updates, the WAL written.
    serverStats: args.includes('--server-stats'),
    buildVus: 2,
    sf: 1,
    dop: 2,
  };
  const bad = o.parts.filter((p) => !['pg', 'mariadb', 'tproch'].includes(p));
  if (bad.length) throw new Error(`--parts: unknown part ${bad.join(', ')}; use pg, mariadb and/or tproch`);
  if (o.vus.some((v) => !Number.isInteger(v) || v < 1)) throw new Error('--vus: give VU counts as positive integers, e.g. --vus 2,4,8');
  if (!Number.isInteger(o.pairs) || o.pairs < 0) throw new Error('--pairs: give a positive integer (0: builds only)');
  if (!/^[a-z_][a-z0-9_]*$/.test(o.dbPrefix)) throw new Error('--db-prefix: lower-case letters, digits and _ only');
  // HammerDB's keepalive and timing loops take whole minutes (0 rampup allowed, at least 1 minute measured).
  if (!Number.isInteger(o.rampup) || o.rampup < 0) throw new Error('--rampup: give whole minutes (0 or more); HammerDB times its rampup in whole minutes');
  if (!Number.isInteger(o.duration) || o.duration < 1) throw new Error('--duration: give whole minutes (1 or more); HammerDB times its window in whole minutes');
  if (!Number.isInteger(o.warehouses) || o.warehouses < o.buildVus) throw new Error(`--warehouses: give an integer >= ${o.buildVus} (the build VUs)`);
  return o;
}

// --- HammerDB scripts (our own text, HammerDB's documented verbs) ---------------------------------------

const tcl = (lines) => lines.join('\n') + '\n';
const mark = (what) => `puts "SLEDGEBENCH ${what} [clock milliseconds]"`;

function tproccConnection(engine, db, o) {
  if (engine === 'pg')
    return [
      'dbset db pg',
      'dbset bm TPC-C',
      'diset connection pg_host 127.0.0.1',
      'diset connection pg_port 5432',
      'diset connection pg_sslmode disable',
      'diset tpcc pg_superuser postgres',
      'diset tpcc pg_superuserpass postgres',
      'diset tpcc pg_defaultdbase postgres',
      `diset tpcc pg_user ${db}`,
      `diset tpcc pg_pass ${db}`,
      `diset tpcc pg_dbase ${db}`,
      `diset tpcc pg_count_ware ${o.warehouses}`,
      `diset tpcc pg_num_vu ${o.buildVus}`,
      'diset tpcc pg_storedprocs false',
    ];
  return [
    'dbset db maria',
    'dbset bm TPC-C',
    'diset connection maria_host 127.0.0.1',
    'diset connection maria_port 3306',
    'diset connection maria_socket null',
    // A user with a password: HammerDB 4.12's checkschema sends the empty password ("null") as a password.
    `diset tpcc maria_user ${H_MARIA_USER}`,
    `diset tpcc maria_pass ${H_MARIA_USER}`,
    `diset tpcc maria_dbase ${db}`,
    `diset tpcc maria_count_ware ${o.warehouses}`,
    `diset tpcc maria_num_vu ${o.buildVus}`,
  ];
}

const tproccBuildScript = (engine, db, o) => tcl([...tproccConnection(engine, db, o), mark('build-start'), 'buildschema', mark('build-end'), 'vudestroy', 'checkschema']);

function tproccRunScript(engine, db, o, vus) {
  const p = engine === 'pg' ? 'pg' : 'maria';
  return tcl([
    ...tproccConnection(engine, db, o),
    `diset tpcc ${p}_driver timed`,
    `diset tpcc ${p}_rampup ${o.rampup}`,
    `diset tpcc ${p}_duration ${o.duration}`,
    `diset tpcc ${p}_allwarehouse false`,
    `diset tpcc ${p}_keyandthink false`,
    'loadscript',
    `vuset vu ${vus}`,
    'vuset logtotemp 1',
    'vucreate',
    mark('run-start'),
    'vurun',
    mark('run-end'),
    'vudestroy',
    'checkschema',
  ]);
}

function tprochConnection(db, o) {
  return [
    'dbset db pg',
    'dbset bm TPC-H',
    'diset connection pg_host 127.0.0.1',
    'diset connection pg_port 5432',
    'diset connection pg_sslmode disable',
    'diset tpch pg_tpch_superuser postgres',
    'diset tpch pg_tpch_superuserpass postgres',
    'diset tpch pg_tpch_defaultdbase postgres',
    `diset tpch pg_tpch_user ${db}`,
    `diset tpch pg_tpch_pass ${db}`,
    `diset tpch pg_tpch_dbase ${db}`,
    `diset tpch pg_scale_fact ${o.sf}`,
    `diset tpch pg_num_tpch_threads ${o.buildVus}`,
  ];
}
const tprochBuildScript = (db, o) => tcl([...tprochConnection(db, o), mark('build-start'), 'buildschema', mark('build-end'), 'vudestroy']);
const tprochPowerScript = (db, o) =>
  tcl([
    ...tprochConnection(db, o),
    'diset tpch pg_total_querysets 1',
    `diset tpch pg_degree_of_parallel ${o.dop}`,
    'diset tpch pg_refresh_on false',
    'diset tpch pg_verbose false',
    'loadscript',
    'vuset vu 1',
    'vuset logtotemp 1',
    'vucreate',
    mark('run-start'),
    'vurun',
    mark('run-end'),
    'vudestroy',
  ]);

/**
 * Runs one generated script with hammerdbcli; samples the CPU of its process tree at our markers and at
 * its monitor VU's window lines. Resolves with the output text, the marker times and the CPU samples.
 */
function runHammerdb(b, home, tmp, name, text) {
  const file = join(tmp, `${name}.tcl`);
  writeFileSync(file, text);
  return new Promise((resolve, reject) => {
    const p = spawn('./hammerdbcli', ['auto', file], { cwd: home, env: { ...process.env, TMP: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    const at = {};
    const cpu = {};
    let out = '';
    let pending = '';
    const sample = (key) => {
      try {
        cpu[key] = b.treeCpuSeconds(p.pid);
      } catch {
        /* exited */
      }
    };
    const onLine = (line) => {
      const m = line.match(/SLEDGEBENCH (\S+) (\d+)/);
      if (m) {
        at[m[1]] = Number(m[2]);
        sample(m[1]);
      }
      if (/Rampup complete, Taking start Transaction Count/.test(line)) {
        at.windowStart = Date.now();
        sample('windowStart');
      }
      if (/Test complete, Taking end Transaction Count/.test(line)) {
        at.windowEnd = Date.now();
        sample('windowEnd');
      }
    };
    const feed = (chunk) => {
      out += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      lines.forEach(onLine);
    };
    p.stdout.setEncoding('utf8').on('data', feed);
    p.stderr.setEncoding('utf8').on('data', feed);
    p.on('error', reject);
    p.on('exit', (code) => {
      if (pending) onLine(pending);
      writeFileSync(join(tmp, `${name}.log`), out);
      if (code !== 0) return reject(new Error(`hammerdbcli ${name} exited ${code}; log ${join(tmp, name + '.log')}`));
      resolve({ out, at, cpu });
    });
  });
}

/** HammerDB checkschema's verdict from a script's output. */
function hammerdbCheck(out) {
  if (/TPROC-C Schema has been checked successfully/.test(out)) return { ok: true, detail: 'checkschema: consistency 1-4 OK' };
  const m = out.match(/(TPROC-C Schema check failed[^\n]*|Schema check failed[^\n]*)/);
  // Without a verdict, the first error after checkschema started (a failed VU, a Tcl error) says why.
  const after = out.slice(Math.max(0, out.indexOf('Checking schema')));
  const err = after.match(/^.*(?:Error|FINISHED FAILED|error).*$/m);
  return { ok: false, detail: m ? m[1].trim() : `checkschema printed no verdict${err ? `: ${err[0].trim().slice(0, 160)}` : ''}` };
}

/** Sledge's check job (C1-C4 on sampled warehouses): the verdict and the failed checks. */
async function sledgeCheck(b, s, target) {
  try {
    const job = await b.submit(s, { type: 'check', target });
    const lines = (await b.output(s, job.id)).filter((t) => /^Check \d+:/.test(t));
    return { ok: true, detail: `sledge check: ${lines.length} checks OK` };
  } catch (e) {
    return { ok: false, detail: String(e.message ?? e).slice(0, 200) };
  }
}

const load1 = () => loadavg()[0];

// --- drops -------------------------------------------------------------------------------------------------
function dropPg(db) {
  psql(`drop database if exists ${db} with (force)`);
  psql(`drop role if exists ${db}`);
}
const dropMaria = (db) => maria(`drop database if exists ${db}`);
/** HammerDB's MariaDB user (see tproccConnection), created for the section and dropped after. */
const H_MARIA_USER = `${PREFIX}_h`;
const createMariaUser = () => maria(`create or replace user ${H_MARIA_USER}@'%' identified by '${H_MARIA_USER}'; grant all privileges on *.* to ${H_MARIA_USER}@'%'`);
const dropMariaUser = () => maria(`drop user if exists ${H_MARIA_USER}@'%'`);

// --- TPROC-C -------------------------------------------------------------------------------------------------

async function tprocc(b, home, tmp, engine, o) {
  const { withApp, submit, log, fmt, table } = b;
  const hDb = `${o.dbPrefix}_h_${engine}`;
  const sDb = `${o.dbPrefix}_s_${engine}`;
  const sTarget =
    engine === 'pg'
      ? { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: sDb, password: sDb, database: sDb, superuser: 'postgres', superuserPassword: 'postgres' }
      : { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: sDb };
  const drop = engine === 'pg' ? dropPg : dropMaria;
  const label = engine === 'pg' ? 'PostgreSQL' : 'MariaDB';
  const reuse = o.reuse && engine === 'pg' && pgHasSchema(hDb, o.warehouses) && pgHasSchema(sDb, o.warehouses);
  if (o.reuse && !reuse) log(`   --reuse: ${hDb} and ${sDb} do not both hold ${o.warehouses} warehouses: building them`);
  if (!reuse) {
    drop(hDb);
    drop(sDb);
  }
  if (engine === 'mariadb') createMariaUser();
  const out = { engine, builds: [], runs: [], reused: reuse };
  const stats = o.serverStats && engine === 'pg';
  try {
    await withApp(async (s) => {
      if (reuse) log(`== hammerdb ${engine}: --reuse, runs on ${hDb} and ${sDb} as a --keep left them`);
      else await tproccBuilds(s);
      if (stats) for (const db of [hDb, sDb]) psql(`alter database ${db} set track_functions = 'pl'`);
      for (const vus of o.vus) {
        for (let pair = 0; pair < o.pairs; pair++) {
          const order = pair % 2 === 0 ? ['HammerDB', 'Sledge'] : ['Sledge', 'HammerDB'];
          for (const client of order) {
            log(`   ${engine} ${vus} VUs pair ${pair + 1}/${o.pairs}: ${client}, rampup ${o.rampup} min, ${o.duration} min measured (load ${fmt(load1(), 2)})`);
            const l0 = load1();
            const db = client === 'HammerDB' ? hDb : sDb;
            if (stats) pgStatReset(db);
            const wal0 = stats ? pgWalLsn() : null;
            let run;
            if (client === 'HammerDB') {
              const r = await runHammerdb(b, home, tmp, `${engine}-run-${vus}-${pair}`, tproccRunScript(engine, hDb, o, vus));
              const m = r.out.match(/System achieved (\d+) NOPM from (\d+) \S+ TPM/);
              if (!m) throw new Error(`HammerDB ${engine} ${vus} VUs printed no TEST RESULT; log ${join(tmp, `${engine}-run-${vus}-${pair}.log`)}`);
              const nopm = Number(m[1]);
              const tpm = Number(m[2]);
              const cpuS = r.cpu.windowEnd - r.cpu.windowStart;
              run = { client, vus, pair, load1: l0, nopm, tpm, clientCpuS: cpuS, msPer1000: (cpuS * 1e6) / (tpm * o.duration), check: hammerdbCheck(r.out) };
            } else {
              const r = await sledgeRun(b, s, sTarget, { vus, rampup: o.rampup, duration: o.duration });
              run = { client, vus, pair, load1: l0, nopm: r.nopm, tpm: r.tpm, loop: r.loop, clientCpuS: r.clientCpuS, msPer1000: (r.clientCpuS * 1e6) / (r.tpm * o.duration), check: await sledgeCheck(b, s, sTarget) };
            }
            if (stats) run.server = pgServerStats(db, wal0);
            out.runs.push(run);
          }
        }
      }
      if (!o.keep) await submit(s, { type: 'delete', target: sTarget }).catch(() => undefined);
    });
  } finally {
    if (stats) for (const db of [hDb, sDb]) psql(`do $$ begin if exists (select 1 from pg_database where datname = '${db}') then execute 'alter database ${db} reset track_functions'; end if; end $$`);
    if (!o.keep) {
      drop(hDb);
      drop(sDb);
    }
    if (engine === 'mariadb') dropMariaUser();
  }

  async function tproccBuilds(s) {
    // Builds: HammerDB first, then Sledge.
    log(`== hammerdb ${engine}: HammerDB build of ${o.warehouses} warehouses, ${o.buildVus} build VUs`);
    let l = load1();
    const hb = await runHammerdb(b, home, tmp, `${engine}-build`, tproccBuildScript(engine, hDb, o));
    out.builds.push({ client: 'HammerDB', load1: l, wallS: (hb.at['build-end'] - hb.at['build-start']) / 1000, clientCpuS: hb.cpu['build-end'] - hb.cpu['build-start'], check: hammerdbCheck(hb.out) });
    log(`== hammerdb ${engine}: Sledge build`);
    l = load1();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await submit(s, { type: 'build', target: sTarget, tprocc: { warehouses: o.warehouses, buildVus: o.buildVus }, metrics: { ash: false, cpu: false } });
    const wallS = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(cpu0);
    out.builds.push({ client: 'Sledge', load1: l, wallS, clientCpuS: (c.user + c.system) / 1e6, check: await sledgeCheck(b, s, sTarget) });
  }

  if (out.builds.length) {
    console.log(`\n${label} TPROC-C build, ${o.warehouses} warehouses, ${o.buildVus} build VUs\n` + table(
      ['client', 'load avg at start', 'wall s', 'client CPU s', 'check'],
      out.builds.map((x) => [x.client, fmt(x.load1, 2), fmt(x.wallS), fmt(x.clientCpuS), `${x.check.ok ? 'OK' : 'FAILED'} (${x.check.detail})`]),
    ));
    const [hB, sB] = out.builds;
    out.buildRatio = sB.wallS / hB.wallS;
    console.log(`Sledge / HammerDB build wall: ${fmt(out.buildRatio, 2)}x (one build each)`);
  }
  if (!out.runs.length) return out;
  console.log(`\n${label} TPROC-C timed runs, ${o.warehouses} warehouses, rampup ${o.rampup} min + ${o.duration} min measured, H/S interleaved (client CPU per 1000 transactions = user+sys over the window / (TPM x minutes))\n` + table(
    ['VUs', 'pair', 'client', 'load avg at start', 'NOPM', 'TPM', 'client CPU s', 'client ms/1000 tx', 'check'],
    out.runs.map((r) => [r.vus, r.pair + 1, r.client + (r.loop ? ` (${r.loop})` : ''), fmt(r.load1, 2), r.nopm, r.tpm, fmt(r.clientCpuS, 2), fmt(r.msPer1000, 1), `${r.check.ok ? 'OK' : 'FAILED'} (${r.check.detail})`]),
  ));
  out.ratios = o.vus.map((vus) => ratioRow(out.runs.filter((r) => r.vus === vus), vus));
  console.log(`\n${label} Sledge / HammerDB per VU count (ratio of means; per-pair ratios min..max)\n` + table(
    ['VUs', 'pairs', 'NOPM H mean (CV%)', 'NOPM S mean (CV%)', 'NOPM S/H', 'per pair', 'TPM S/H', 'client ms/1000 H', 'client ms/1000 S', 'CPU S/H', 'per pair'],
    out.ratios.map((r) => [r.vus, r.pairs, `${fmt(r.nopm.h.mean, 0)} (${fmt(r.nopm.h.cvPct, 1)})`, `${fmt(r.nopm.s.mean, 0)} (${fmt(r.nopm.s.cvPct, 1)})`, `${fmt(r.nopm.ratio, 2)}x`, span(r.nopm.perPair), `${fmt(r.tpm.ratio, 2)}x`, fmt(r.cpu.h.mean, 1), fmt(r.cpu.s.mean, 1), `${fmt(r.cpu.ratio, 2)}x`, span(r.cpu.perPair)]),
  ));
  if (stats) printServerStats(b, out.runs, label);
  return out;
}

const span = (xs) => (xs.length ? `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}` : '-');

/** Means, spreads and Sledge / HammerDB ratios of one VU count's runs; per-pair ratios pair the k-th run of each side. */
export function ratioRow(runs, vus) {
  const side = (c) => runs.filter((r) => r.client === c);
  const fig = (key) => {
    const h = side('HammerDB').map((r) => r[key]);
    const s = side('Sledge').map((r) => r[key]);
    const perPair = s.map((x, i) => x / h[i]).filter((x) => Number.isFinite(x));
    const hs = spread(h);
    const ss = spread(s);
    return { h: hs, s: ss, ratio: ss.mean / hs.mean, perPair };
  };
  return { vus, pairs: Math.min(side('HammerDB').length, side('Sledge').length), nopm: fig('nopm'), tpm: fig('tpm'), cpu: fig('msPer1000') };
}

// --- PostgreSQL server-side figures per run (--server-stats) -----------------------------------------------
const psqlDb = (db, sql) => execFileSync('psql', ['-X', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', db, '-v', 'ON_ERROR_STOP=1', '-Atc', sql], { env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } }).toString().trim();
/** True when db exists and its warehouse table holds w warehouses. */
function pgHasSchema(db, w) {
  if (psql(`select count(*) from pg_database where datname = '${db}'`) !== '1') return false;
  try {
    return Number(psqlDb(db, 'select coalesce(max(w_id), 0) from warehouse')) === w;
  } catch {
    return false;
  }
}
const pgStatReset = (db) => psqlDb(db, 'select pg_stat_reset()');
const pgWalLsn = () => psql('select pg_current_wal_lsn()');
const ROUTINE_NAMES = ['neword', 'payment', 'delivery', 'slev', 'ostat'];
/** The routines' calls and µs per call (total_time: statements and nested routines included), updates, HOT updates and the WAL since wal0. */
function pgServerStats(db, wal0) {
  execFileSync('sleep', ['1.5']); // the VU sessions' statistics reach shared memory as they exit
  const fn = {};
  for (const line of psqlDb(db, `select funcname, calls, total_time from pg_stat_user_functions where funcname in (${ROUTINE_NAMES.map((r) => `'${r}'`).join(',')})`).split('\n').filter(Boolean)) {
    const [name, calls, ms] = line.split('|');
    fn[name] = { calls: Number(calls), usPerCall: Number(calls) ? (Number(ms) * 1000) / Number(calls) : NaN };
  }
  const tables = {};
  for (const line of psqlDb(db, 'select relname, n_tup_upd, n_tup_hot_upd, n_tup_ins from pg_stat_user_tables order by relname').split('\n').filter(Boolean)) {
    const [name, upd, hot, ins] = line.split('|');
    tables[name] = { upd: Number(upd), hot: Number(hot), ins: Number(ins) };
  }
  const indexes = {};
  for (const line of psqlDb(db, 'select indexrelname, idx_scan, idx_tup_read from pg_stat_user_indexes order by indexrelname').split('\n').filter(Boolean)) {
    const [name, scans, read] = line.split('|');
    indexes[name] = { scans: Number(scans), read: Number(read) };
  }
  const walBytes = Number(psql(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '${wal0}')`));
  const xacts = Number(psqlDb(db, 'select xact_commit + xact_rollback from pg_stat_database where datname = current_database()'));
  return { fn, tables, indexes, walBytes, xacts };
}

function printServerStats(b, runs, label) {
  const { table, fmt } = b;
  const withStats = runs.filter((r) => r.server);
  if (!withStats.length) return;
  console.log(`\n${label} server side per run (track_functions = pl; µs per call = total_time / calls, each routine's statements and nested calls included)\n` + table(
    ['VUs', 'pair', 'client', ...ROUTINE_NAMES.map((r) => `${r} µs`), 'WAL bytes / tx', 'HOT % stock', 'HOT % customer', 'HOT % order_line', 'HOT % orders', 'HOT % district', 'customer_i2 entries read / payment'],
    withStats.map((r) => {
      const t = r.server.tables;
      const hot = (n) => (t[n]?.upd ? fmt((100 * t[n].hot) / t[n].upd, 0) : '-');
      return [r.vus, r.pair + 1, r.client, ...ROUTINE_NAMES.map((x) => fmt(r.server.fn[x]?.usPerCall, 1)), fmt(r.server.walBytes / r.server.xacts, 0), hot('stock'), hot('customer'), hot('order_line'), hot('orders'), hot('district'), fmt((r.server.indexes.customer_i2?.read ?? NaN) / (r.server.fn.payment?.calls ?? NaN), 2)];
    }),
  ));
}

// --- TPROC-H -------------------------------------------------------------------------------------------------

/** One HammerDB power run (one query set): the seconds of each query, the geomean and the set's time. */
async function hammerdbPower(b, home, tmp, hDb, o, pair) {
  const l = load1();
  const name = `tpch-power-${pair}`;
  const hp = await runHammerdb(b, home, tmp, name, tprochPowerScript(hDb, o));
  const hq = new Map([...hp.out.matchAll(/query (\d+) completed in ([\d.]+) seconds/g)].map((m) => [Number(m[1]), Number(m[2])]));
  if (hq.size === 0) throw new Error(`HammerDB power run printed no query times; log ${join(tmp, `${name}.log`)}`);
  const geomean = Number(hp.out.match(/Geometric mean of query times returning rows \(\d+\) is ([\d.]+)/)?.[1]);
  const setS = Number(hp.out.match(/Completed 1 query set\(s\) in ([\d.]+) seconds/)?.[1]);
  return { load1: l, queries: Object.fromEntries(hq), geomean, setS, clientCpuS: hp.cpu['run-end'] - hp.cpu['run-start'] };
}

/** One Sledge power run through the REST API, the same DOP, no refresh. */
async function sledgePower(s, submit, sTarget, o) {
  const l = load1();
  const cpu = process.cpuUsage();
  const job = await submit(s, { type: 'run', workload: 'tproch', target: sTarget, tproch: { scaleFactor: o.sf, mode: 'power', dop: o.dop, explain: false }, metrics: { ash: false, cpu: false } });
  const c = process.cpuUsage(cpu);
  const r = job.result;
  return { load1: l, queries: Object.fromEntries(r.queries.map((q) => [q.query, q.seconds])), geomean: r.geomean, setS: r.elapsedSeconds, clientCpuS: (c.user + c.system) / 1e6, order: r.queries.map((q) => q.query) };
}

async function tproch(b, home, tmp, o) {
  const { withApp, submit, log, fmt, table } = b;
  const hDb = `${o.dbPrefix}_h_tpch`;
  const sDb = `${o.dbPrefix}_s_tpch`;
  const sTarget = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: sDb, password: sDb, database: sDb, superuser: 'postgres', superuserPassword: 'postgres' };
  dropPg(hDb);
  dropPg(sDb);
  const out = {};
  try {
    await withApp(async (s) => {
      log(`== hammerdb tproch: HammerDB build of SF ${o.sf} on PostgreSQL, ${o.buildVus} build threads`);
      let l = load1();
      const hb = await runHammerdb(b, home, tmp, 'tpch-build', tprochBuildScript(hDb, o));
      if (!/SCHEMA COMPLETE/.test(hb.out)) throw new Error(`HammerDB TPROC-H build did not complete; log ${join(tmp, 'tpch-build.log')}`);
      out.hBuild = { load1: l, wallS: (hb.at['build-end'] - hb.at['build-start']) / 1000, clientCpuS: hb.cpu['build-end'] - hb.cpu['build-start'] };
      log(`== hammerdb tproch: Sledge build of SF ${o.sf}, ${o.buildVus} build VUs`);
      l = load1();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await submit(s, { type: 'build', workload: 'tproch', target: sTarget, tproch: { scaleFactor: o.sf, buildVus: o.buildVus }, metrics: { ash: false, cpu: false } });
      const wallS = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(cpu0);
      out.sBuild = { load1: l, wallS, clientCpuS: (c.user + c.system) / 1e6 };

      // Power runs in pairs, interleaved as the TPROC-C runs are (H S, then S H, ...), on the two builds.
      out.hPower = [];
      out.sPower = [];
      const pairs = Math.max(1, o.pairs);
      for (let pair = 0; pair < pairs; pair++) {
        const order = pair % 2 === 0 ? ['HammerDB', 'Sledge'] : ['Sledge', 'HammerDB'];
        for (const client of order) {
          log(`== hammerdb tproch: power run pair ${pair + 1}/${pairs}, ${client}, DOP ${o.dop} (load ${fmt(load1(), 2)})`);
          if (client === 'HammerDB') out.hPower.push(await hammerdbPower(b, home, tmp, hDb, o, pair));
          else out.sPower.push(await sledgePower(s, submit, sTarget, o));
        }
      }
      await submit(s, { type: 'delete', workload: 'tproch', target: sTarget, tproch: { scaleFactor: o.sf } }).catch(() => undefined);
    });
  } finally {
    dropPg(hDb);
    dropPg(sDb);
  }
  console.log(`\nPostgreSQL TPROC-H SF ${o.sf} build, ${o.buildVus} build VUs (HammerDB threads)\n` + table(
    ['client', 'load avg at start', 'wall s', 'client CPU s'],
    [
      ['HammerDB', fmt(out.hBuild.load1, 2), fmt(out.hBuild.wallS), fmt(out.hBuild.clientCpuS)],
      ['Sledge', fmt(out.sBuild.load1, 2), fmt(out.sBuild.wallS), fmt(out.sBuild.clientCpuS)],
    ],
  ));
  out.buildRatio = out.sBuild.wallS / out.hBuild.wallS;
  console.log(`Sledge / HammerDB build wall: ${fmt(out.buildRatio, 2)}x (one build each)`);
  const qs = out.sPower[0].order;
  const mean = (xs) => spread(xs).mean;
  const q = (runs, n) => runs.map((r) => r.queries[n]).filter((x) => Number.isFinite(x));
  const n = out.sPower.length;
  console.log(`\nPostgreSQL TPROC-H SF ${o.sf} power runs, DOP ${o.dop}, 1 query set each, no refresh, ${n} interleaved pair(s) (load avg at starts: HammerDB ${out.hPower.map((r) => fmt(r.load1, 2)).join(', ')}; Sledge ${out.sPower.map((r) => fmt(r.load1, 2)).join(', ')})\n` + table(
    ['query', 'HammerDB s (mean, min..max)', 'Sledge s (mean, min..max)', 'S/H of means', 'S/H per pair'],
    qs.map((k) => {
      const h = q(out.hPower, k);
      const sv = q(out.sPower, k);
      const per = sv.map((x, i) => x / h[i]).filter((x) => Number.isFinite(x) && x > 0);
      return [`Q${k}`, `${fmt(mean(h), 3)} (${span(h)})`, `${fmt(mean(sv), 3)} (${span(sv)})`, h.length ? `${fmt(mean(sv) / mean(h), 2)}x` : '-', span(per)];
    }),
  ));
  const geo = (runs) => runs.map((r) => r.geomean);
  const perPair = out.sPower.map((r, i) => r.geomean / out.hPower[i].geomean);
  out.geomean = { hammerdb: spread(geo(out.hPower)), sledge: spread(geo(out.sPower)), perPair };
  out.geomeanRatio = out.geomean.sledge.mean / out.geomean.hammerdb.mean;
  console.log(
    `geomean: HammerDB ${geo(out.hPower).map((x) => fmt(x, 3)).join(', ')} s (CV ${fmt(out.geomean.hammerdb.cvPct, 1)}%), Sledge ${geo(out.sPower).map((x) => fmt(x, 3)).join(', ')} s (CV ${fmt(out.geomean.sledge.cvPct, 1)}%); ` +
      `S/H ${fmt(out.geomeanRatio, 2)}x of the means, per pair ${perPair.map((x) => `${fmt(x, 2)}x`).join(', ')}; ` +
      `query set s: HammerDB ${out.hPower.map((r) => fmt(r.setS)).join(', ')}, Sledge ${out.sPower.map((r) => fmt(r.setS)).join(', ')}; ` +
      `client CPU s: HammerDB ${out.hPower.map((r) => fmt(r.clientCpuS, 2)).join(', ')}, Sledge ${out.sPower.map((r) => fmt(r.clientCpuS, 2)).join(', ')}`,
  );
  return out;
}

export async function benchHammerdb(b) {
  const { quick, args, log, results } = b;
  const home = findHammerdb();
  if (!home) {
    console.log('\n' + HOW_TO_BUILD(process.env.HAMMERDB_HOME));
    results.sections.hammerdb = { skipped: 'HammerDB CLI not found' };
    return;
  }
  const o = hammerdbOptions(args, quick);
  log(`== hammerdb: HammerDB CLI in ${home}; parts ${o.parts.join(', ')}; VUs ${o.vus.join(', ')}; ${o.pairs} pair(s); rampup ${o.rampup} + ${o.duration} min`);
  const tmp = mkdtempSync(join(tmpdir(), 'sledge-bench-hdb-'));
  const out = { home, options: o };
  results.sections.hammerdb = out;
  try {
    if (o.parts.includes('pg')) out.pg = await tprocc(b, home, tmp, 'pg', o);
    if (o.parts.includes('mariadb')) out.mariadb = await tprocc(b, home, tmp, 'mariadb', o);
    if (o.parts.includes('tproch')) out.tproch = await tproch(b, home, tmp, o);
    const failed = [out.pg, out.mariadb].filter(Boolean).flatMap((t) => [...t.builds, ...t.runs]).filter((x) => !x.check.ok);
    if (failed.length) log(`   ${failed.length} check(s) failed or gave no verdict: HammerDB scripts and logs kept in ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  } catch (e) {
    log(`   HammerDB scripts and logs kept in ${tmp}`);
    throw e;
  }
}
