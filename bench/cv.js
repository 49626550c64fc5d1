/**
 * pnpm bench cv [--engines pg,mariadb] [--vus N] [--warehouses N] [--rampup MIN] [--duration MIN] [--cv-sets a,b,c] [--seed N] [--quick]
 *
 * Run-to-run spread (issue 17 item 5): three identical timed runs back to back per set, NOPM and TPM of
 * each, mean and coefficient of variation (sample standard deviation / mean). Sets (--cv-sets, default all):
 * - plain:      the job body a user would send: no seed (the server draws one per job, so the VUs' home
 *               warehouses differ run to run), no rampup (the window starts as the VUs start, each
 *               userDelayMs = 500 ms after the previous one), nothing done to the database between runs.
 * - seed:       the same with a fixed seed (the same home warehouses every run).
 * - controlled: fixed seed, CHECKPOINT (PostgreSQL) / dirty pages flushed (MariaDB: innodb_max_dirty_pages_pct
 *               = 0 until the buffer pool is clean, then restored) before each run, and a warm-up rampup
 *               (--rampup, default 1 min) before the window.
 * For each run it also records what may explain the spread: the distinct home warehouses of the seed,
 * checkpoints (PostgreSQL: pg_stat_bgwriter) or pages flushed (MariaDB) and WAL/redo written during the
 * measured window (sampled when the job turns 'measuring' and when it ends, +-0.25 s).
 * Databases: the reference sections' (sledge_bench_pgref, sledge_bench_mariaref), built when missing or of
 * another warehouse count, so that `pnpm bench pgref mariaref cv` builds each schema once.
 */
import { execFileSync } from 'node:child_process';
import { opt, randomSeed, spread, vuHomes } from './ref-common.js';

const PG_DB = 'sledge_bench_pgref';
const MARIA_DB = 'sledge_bench_mariaref';
const pg = (sql) => execFileSync('psql', ['-X', '-h', '127.0.0.1', '-U', 'postgres', '-d', PG_DB, '-Atqc', sql], { env: { ...process.env, PGPASSWORD: 'postgres' } }).toString().trim();
const my = (sql) => execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-B', '-e', sql]).toString().trim();
const myStatus = (name) => Number(my(`show global status like '${name}'`).split('\t')[1]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const ENGINES = {
  pg: {
    name: 'PostgreSQL',
    target: { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: PG_DB, password: 'bench', database: PG_DB, superuser: 'postgres', superuserPassword: 'postgres' },
    /** Checkpoints so far and WAL position (bytes). */
    sample: () => {
      const [ck, lsn] = pg(`select checkpoints_timed + checkpoints_req, pg_current_wal_lsn() - '0/0'::pg_lsn from pg_stat_bgwriter`).split('|');
      return { checkpoints: Number(ck), logBytes: Number(lsn) };
    },
    clean: async () => {
      pg('CHECKPOINT');
      return 'CHECKPOINT';
    },
  },
  mariadb: {
    name: 'MariaDB',
    target: { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: MARIA_DB },
    sample: () => ({ pagesFlushed: myStatus('Innodb_buffer_pool_pages_flushed'), logBytes: myStatus('Innodb_lsn_current'), dirty: myStatus('Innodb_buffer_pool_pages_dirty') }),
    /** Flushes the buffer pool's dirty pages (InnoDB's checkpoint follows), at most 120 s; the setting is restored. */
    clean: async () => {
      const pct = my('select @@innodb_max_dirty_pages_pct');
      const lwm = my('select @@innodb_max_dirty_pages_pct_lwm');
      const before = myStatus('Innodb_buffer_pool_pages_dirty');
      const t0 = Date.now();
      try {
        my('set global innodb_max_dirty_pages_pct_lwm = 0.001, global innodb_max_dirty_pages_pct = 0.001');
        while (myStatus('Innodb_buffer_pool_pages_dirty') > 100 && Date.now() - t0 < 120_000) await sleep(250);
      } finally {
        my(`set global innodb_max_dirty_pages_pct = ${pct}, global innodb_max_dirty_pages_pct_lwm = ${lwm}`);
      }
      return `flush: ${before} -> ${myStatus('Innodb_buffer_pool_pages_dirty')} dirty pages in ${((Date.now() - t0) / 1000).toFixed(1)} s`;
    },
  },
};

/** Submits a run and samples the engine's counters when the window starts (status 'measuring') and when the job ends. */
async function watchedRun(s, e, body) {
  const r = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: body });
  if (r.statusCode !== 201) throw new Error(`run: ${r.body}`);
  const id = JSON.parse(r.body).id;
  let start = null;
  for (;;) {
    const g = JSON.parse((await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}` })).body);
    if (!start && (g.status === 'measuring' || g.status === 'completed')) start = e.sample();
    if (['completed', 'failed', 'stopped', 'interrupted'].includes(g.status)) {
      if (g.status !== 'completed') throw new Error(`run job ${id} ${g.status}: ${g.error?.message}`);
      return { job: g, start, end: e.sample() };
    }
    await sleep(250);
  }
}

export async function benchCv(b) {
  const { ROOT, quick, args, withApp, submit, table, fmt, log, results } = b;
  const engines = String(opt(args, 'engines', 'pg,mariadb')).split(',');
  const vus = Number(opt(args, 'vus', 4));
  const warehouses = Number(opt(args, 'warehouses', quick ? 2 : 4));
  const rampup = Number(opt(args, 'rampup', quick ? 0.1 : 1));
  const duration = Number(opt(args, 'duration', quick ? 0.25 : 1));
  const fixedSeed = Number(opt(args, 'seed', 20261124));
  const sets = String(opt(args, 'cv-sets', 'plain,seed,controlled')).split(',');
  const out = {};
  for (const key of engines) {
    const e = ENGINES[key];
    if (!e) throw new Error(`cv: unknown engine ${key} (pg, mariadb)`);
    log(`== cv: ${e.name}, ${vus} VUs, ${warehouses} warehouses, ${duration} min measured, sets ${sets.join(', ')}: 3 identical runs each`);
    const GB = 1024 * 1024 * 1024;
    const pool0 = key === 'mariadb' ? Number(my('select @@innodb_buffer_pool_size')) : GB;
    if (pool0 < GB) {
      log(`   raising innodb_buffer_pool_size online from ${pool0 / 1048576} MB to 1024 MB for the section (restored after)`);
      my(`set global innodb_buffer_pool_size = ${GB}`);
    }
    try {
      await withApp(async (s) => {
        const test = await s.app.inject({ method: 'POST', url: '/api/v1/targets/test', payload: { target: e.target } });
        const state = test.statusCode === 200 ? JSON.parse(test.body) : null;
        if (args.includes('--rebuild') || !state?.schema?.exists || state.schema.warehouses !== warehouses) {
          log(`   building ${warehouses} warehouses into ${e.target.database}`);
          await submit(s, { type: 'delete', target: e.target });
          await submit(s, { type: 'build', target: e.target, tprocc: { warehouses, buildVus: 2 }, metrics: { ash: false, cpu: false } });
        }
        const rows = [];
        const summary = [];
        for (const set of sets) {
          const controlled = set === 'controlled';
          const runs = [];
          for (let i = 1; i <= 3; i++) {
            const seed = set === 'plain' ? randomSeed() : fixedSeed;
            const note = controlled ? await e.clean() : '';
            const rmp = controlled ? rampup : 0;
            log(`   ${set} run ${i}: seed ${seed}, rampup ${rmp} min${note ? `, ${note}` : ''}`);
            const w = await watchedRun(s, e, { type: 'run', target: e.target, seed, tprocc: { vus, rampup: rmp, duration }, metrics: { ash: false, cpu: false } });
            const homes = await vuHomes(ROOT, seed, warehouses, vus);
            const distinct = new Set(homes.map((h) => h.homeW)).size;
            const d = (k) => (w.end[k] !== undefined ? w.end[k] - w.start[k] : undefined);
            const run = {
              set,
              seed,
              rampup: rmp,
              nopm: w.job.result.nopm,
              tpm: w.job.result.tpm,
              homes: homes.map((h) => h.homeW),
              distinctHomes: distinct,
              checkpoints: d('checkpoints'),
              pagesFlushed: d('pagesFlushed'),
              dirtyAtStart: w.start.dirty,
              logMB: d('logBytes') / 1048576,
              clean: note,
            };
            runs.push(run);
            rows.push([set, i, seed, run.homes.join(','), rmp, run.nopm, run.tpm, key === 'pg' ? run.checkpoints : run.pagesFlushed, fmt(run.logMB, 0)]);
          }
          const n = spread(runs.map((r) => r.nopm));
          const t = spread(runs.map((r) => r.tpm));
          summary.push({ set, runs, nopm: n, tpm: t });
        }
        out[key] = { vus, warehouses, duration, rampup, sets: summary };
        console.log(`\n${e.name}: three identical runs per set (${vus} VUs, ${warehouses} warehouses, ${duration} min measured)\n` + table(
          ['set', 'run', 'seed', 'VU home warehouses', 'rampup min', 'NOPM', 'TPM', key === 'pg' ? 'checkpoints in window' : 'pages flushed in window', key === 'pg' ? 'WAL MB in window' : 'redo MB in window'],
          rows,
        ));
        console.log(table(
          ['set', 'NOPM mean', 'NOPM CV %', 'NOPM min', 'NOPM max', 'TPM mean', 'TPM CV %'],
          summary.map((x) => [x.set, fmt(x.nopm.mean, 0), fmt(x.nopm.cvPct, 2), x.nopm.min, x.nopm.max, fmt(x.tpm.mean, 0), fmt(x.tpm.cvPct, 2)]),
        ));
      });
    } finally {
      if (pool0 < GB) my(`set global innodb_buffer_pool_size = ${pool0}`);
    }
  }
  results.sections.cv = out;
}
