/**
 * pnpm bench async [--sessions N] [--vus N] [--rampup MIN] [--duration MIN] [--warehouses N]
 *                  [--async-delay MS] [--user-delay MS] [--engines pg,mariadb] [--keep] [--no-deadlock-detect] [--quick]
 *
 * Fixed throughput at scale (hammerdb.md §6.7): one Sledge process holds N database sessions
 * (default 10,000 = 100 VUs x 100 asynchronous clients) with keying and thinking time on at
 * TPC-C's default times, on PostgreSQL through PgBouncer (transaction pooling, started here on
 * port 6434 with a temp config) and on MariaDB directly (max_connections raised for the run,
 * restored after). Reports NOPM against TPC-C's cap (12.86 tpmC per warehouse at 10 terminals
 * per warehouse = 1.286 NOPM per session) and against what Sledge's (HammerDB's) 10/10/1/1/1 mix
 * predicts from the keying and thinking table, the peak RSS of the Sledge process (goal
 * <= 1.5 GB), its CPU, and the sessions counted on the server side.
 *
 * The schema (async_tpcc, --warehouses, default 20) is built once per engine when missing and
 * dropped at the end unless --keep. NOPM under keying and thinking depends on the sessions, not
 * on the warehouses (each async client keeps a home warehouse; 20 warehouses = 200 districts
 * are far from contention at ~215 new orders/s).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startPgBouncer } from './pgbouncer.js';

const opt = (args, name, def) => {
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  if (eq) return eq.slice(name.length + 3);
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def;
};

/** The TPC-C keying and mean thinking times (tprocc.keyThink defaults). */
const KEY_THINK = { neworder: [18, 12], payment: [3, 12], delivery: [2, 10], stocklevel: [2, 5], orderstatus: [2, 5] };
const MIX = { neworder: 10, payment: 10, delivery: 1, stocklevel: 1, orderstatus: 1 };
/** TPC-C's own mix at its minimum percentages (5.2.3), which gives the 12.86 tpmC per warehouse cap. */
const TPCC_MIX = { neworder: 45, payment: 43, delivery: 4, stocklevel: 4, orderstatus: 4 };

/** New orders per minute per session with zero response time: 60 x P(new order) / mean(keying + thinking). */
export function nopmPerSession(mix, kt = KEY_THINK) {
  const total = Object.values(mix).reduce((a, b) => a + b, 0);
  let cycle = 0;
  for (const [t, w] of Object.entries(mix)) cycle += (w / total) * (kt[t][0] + kt[t][1]);
  return (60 * (mix.neworder / total)) / cycle;
}

const rssNow = () => Number(readFileSync('/proc/self/status', 'utf8').match(/VmRSS:\s+(\d+)/)[1]) * 1024;

export async function benchAsync(b) {
  const { quick, args, withApp, submit, output, table, fmt, log, pidOf, results } = b;
  const sessions = Number(opt(args, 'sessions', quick ? 200 : 10000));
  const vus = Number(opt(args, 'vus', sessions >= 100 ? Math.min(100, Math.ceil(sessions / 100)) : 1));
  const clients = Math.ceil(sessions / vus);
  const rampup = Number(opt(args, 'rampup', quick ? 0.5 : 2));
  const duration = Number(opt(args, 'duration', quick ? 0.5 : 3));
  const warehouses = Number(opt(args, 'warehouses', quick ? 2 : 20));
  const asyncDelay = Number(opt(args, 'async-delay', quick ? 50 : 500));
  const userDelay = Number(opt(args, 'user-delay', quick ? 100 : 200));
  const engines = String(opt(args, 'engines', 'pg,mariadb')).split(',');
  const keep = args.includes('--keep');
  const n = vus * clients;
  const tpccCap = 1.286 * n;
  const mixPredicted = nopmPerSession(MIX) * n;
  log(`== async: ${vus} VU x ${clients} AC = ${n} sessions, keying and thinking at TPC-C times, rampup ${rampup} min, ${duration} min measured, ${warehouses} warehouses`);
  log(`   NOPM expected: TPC-C cap 1.286 x ${n} = ${fmt(tpccCap, 0)}; Sledge's 10/10/1/1/1 mix predicts ${fmt(nopmPerSession(MIX), 4)} x ${n} = ${fmt(mixPredicted, 0)} (TPC-C's 45/43/4/4/4 mix: ${fmt(nopmPerSession(TPCC_MIX), 4)})`);
  const tprocc = { vus, rampup, duration, keyAndThink: true, asyncScale: true, asyncClients: clients, asyncDelayMs: asyncDelay, userDelayMs: userDelay, tcRefreshSec: 10 };
  const rows = [];
  const head = ['', 'sessions line', 'server-side sessions', 'NOPM', 'TPM', 'vs 1.286 x sessions', 'vs mix prediction', 'Sledge RSS peak MB', 'Sledge CPU % of a core', 'client ms/1000 tx', 'errors'];
  const row = ([name, m]) => [
    name,
    m.sessionsLine.replace(' Active Sessions configured', ''),
    m.sessionsPeak + (m.serverBackendsPeak !== undefined ? ` (${m.serverBackendsPeak} PostgreSQL backends)` : ''),
    m.result.nopm,
    m.result.tpm,
    fmt(((m.result.nopm - tpccCap) / tpccCap) * 100, 1) + '%',
    fmt(((m.result.nopm - mixPredicted) / mixPredicted) * 100, 1) + '%',
    fmt(m.rssPeakMB, 0),
    fmt(m.cpuPctOfOneCore, 1),
    fmt(m.result.clientCpuMsPer1000Tx, 1),
    m.errors,
  ];
  /** Each engine's figures as soon as it is measured (a later engine may take long). */
  const done = (name, m) => {
    rows.push([name, m]);
    log(table(head, [row([name, m])]));
    log(JSON.stringify({ engine: name, ...m }));
  };
  const out = { sessions: n, vus, clients, rampup, duration, warehouses, asyncDelayMs: asyncDelay, userDelayMs: userDelay, tpccCap, mixPredicted, engines: {} };

  /** One run: RSS sampled every second in this process (the Sledge server runs in it), the server-side session count sampled too. */
  async function measured(s, target, count) {
    const rss0 = rssNow();
    let rssPeak = rss0;
    let sessionsPeak = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let ticks = 0;
    const timer = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssNow());
      // The server-side count every 10 s: a processlist over 10,000 threads is not free.
      if (ticks++ % 5 !== 0) return;
      try {
        sessionsPeak = Math.max(sessionsPeak, count());
      } catch {
        /* the count query may be refused at the server's limit */
      }
    }, 2000);
    try {
      const job = await submit(s, { type: 'run', target, tprocc, metrics: { ash: false, cpu: false } });
      const wall = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const lines = await output(s, job.id);
      return {
        result: job.result,
        sessionsLine: lines.find((t) => /Active Sessions configured$/.test(t)) ?? '',
        errors: lines.filter((t) => /Procedure Error|Error in Virtual User/.test(t)).length,
        rssStartMB: rss0 / 1048576,
        rssPeakMB: rssPeak / 1048576,
        cpuPctOfOneCore: ((cpu.user + cpu.system) / 1e6 / wall) * 100,
        wallS: wall,
        sessionsPeak,
      };
    } finally {
      clearInterval(timer);
    }
  }

  const ensureSchema = async (s, buildTarget) => {
    const state = JSON.parse((await s.app.inject({ method: 'POST', url: '/api/v1/targets/test', payload: { target: buildTarget } })).body);
    if (state.schema?.exists && state.schema?.warehouses === warehouses) return;
    log(`   building ${warehouses} warehouses into ${buildTarget.database}`);
    await submit(s, { type: 'delete', target: buildTarget });
    await submit(s, { type: 'build', target: buildTarget, tprocc: { warehouses, buildVus: 2 }, metrics: { ash: false, cpu: false } });
  };

  if (engines.includes('pg')) {
    const direct = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'async_tpcc', password: 'async', database: 'async_tpcc', superuser: 'postgres', superuserPassword: 'postgres', sslmode: 'disable' };
    const bouncer = await startPgBouncer({ port: 6434, users: ['postgres', 'async_tpcc'], poolSize: 30, maxClients: n + 200 });
    try {
      await withApp(async (s) => {
        await ensureSchema(s, direct);
        const psql = (sql) => execFileSync('psql', ['-X', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', sql]).toString().trim();
        let backends = 0;
        log(`   PostgreSQL via PgBouncer :${bouncer.port} (pool_mode=transaction, pool 30): ${n} sessions`);
        const m = await measured(s, { ...direct, port: bouncer.port, prepared: false }, () => {
          backends = Math.max(backends, Number(psql(`select count(*) from pg_stat_activity where datname = 'async_tpcc'`)));
          return bouncer.clients('async_tpcc');
        });
        m.serverBackendsPeak = backends;
        out.engines.postgresql = m;
        done('PostgreSQL via PgBouncer', m);
        if (!keep) await submit(s, { type: 'delete', target: direct });
      });
    } finally {
      await bouncer.stop();
    }
  }

  if (engines.includes('mariadb')) {
    const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'async_tpcc' };
    const sql = (q) => execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-e', q], { maxBuffer: 64 * 1024 * 1024 }).toString().trim();
    const max0 = Number(sql('select @@global.max_connections'));
    const dd0 = sql('select @@global.innodb_deadlock_detect');
    // --no-deadlock-detect: InnoDB's deadlock detection walks the wait queues on every lock wait; with
    // thousands of sessions queued on hot rows it can take the CPU (lock wait timeouts resolve them instead).
    const noDd = args.includes('--no-deadlock-detect');
    if (noDd) {
      log('   innodb_deadlock_detect OFF for the run (restored after)');
      sql('set global innodb_deadlock_detect = OFF');
    }
    const need = n + 200;
    if (max0 < need) {
      log(`   raising MariaDB max_connections from ${max0} to ${need} for the run (restored after)`);
      sql(`set global max_connections = ${need}`);
    }
    try {
      await withApp(async (s) => {
        await ensureSchema(s, target);
        log(`   MariaDB directly: ${n} sessions`);
        const m = await measured(s, target, () => Number(sql(`select count(*) from information_schema.processlist where db = 'async_tpcc'`)));
        m.mariadbRssMB = (() => {
          const pid = pidOf('mariadbd');
          return pid ? Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024 : null;
        })();
        out.engines.mariadb = m;
        done('MariaDB', m);
        if (!keep) await submit(s, { type: 'delete', target });
      });
    } finally {
      if (max0 < need) sql(`set global max_connections = ${max0}`);
      if (noDd) sql(`set global innodb_deadlock_detect = ${dd0 === '1' ? 'ON' : 'OFF'}`);
    }
  }

  out.vmHwmMB = Number(readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+)/)[1]) / 1024;
  results.sections.async = out;
  console.log(
    `\nFixed throughput, ${vus} VU x ${clients} AC = ${n} sessions, keying and thinking at TPC-C times, ${warehouses} warehouses, rampup ${rampup} min + ${duration} min measured\n` +
      table(head, rows.map(row)),
  );
  console.log(`TPC-C cap 1.286 x ${n} = ${fmt(tpccCap, 0)} NOPM; Sledge's 10/10/1/1/1 mix with TPC-C's times predicts ${fmt(mixPredicted, 0)} NOPM at zero response time. Process VmHWM ${fmt(out.vmHwmMB, 0)} MB (includes the builds).`);
}
