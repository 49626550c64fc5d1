/**
 * pnpm bench script: Sledge's script workload vs pgbench on the same `tpcb-like` script (issue 33's
 * bench row; issue 37 wants Sledge's client CPU per transaction within 1.1x of pgbench's).
 *
 * One database (scale 1, built by Sledge's `build` job, pgbench -i's tables), 4 clients, interleaved
 * rounds: pgbench, Sledge, Sledge, pgbench, ... (--rounds N pairs, default 2; the order flips each round
 * so both see the same machine load). Each run measures TPS over its window and the client process's
 * CPU (user + sys) per transaction:
 * - pgbench: `pgbench -n -c 4 -j 2 -T S -M prepared -b tpcb-like` (`--pgbench-threads N`: -j N) (`--protocol extended`: -M extended and Sledge's prepared: false) under /usr/bin/time (its whole
 *   process, connections included: a few ms); named prepared statements, as Sledge sends them (target.prepared, the default).
 * - Sledge: a `run` job of the script workload in this process (rampup 0, the same seconds; `--threads N`: script.threads,
 *   the native loop's threads, default 0 = one per core), its
 *   result's clientCpuMsPer1000 (this process's CPU over the measured window: the VU threads and the
 *   in-process server alike) and tps.
 * The table gives each run, then mean and spread (min-max) per client and the ratios.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';

/** PostgreSQL's own pgbench: on PATH, or in a /usr/lib/postgresql/<v>/bin. */
function pgbenchBin() {
  try {
    return execFileSync('sh', ['-c', 'command -v pgbench']).toString().trim();
  } catch {
    const dirs = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : [];
    const hit = dirs.map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`).find((p) => existsSync(p));
    if (!hit) throw new Error('pgbench not found (PATH or /usr/lib/postgresql/*/bin): install postgresql-client');
    return hit;
  }
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const spread = (xs, d, fmt) => `${fmt(Math.min(...xs), d)}-${fmt(Math.max(...xs), d)}`;

export async function benchScript({ quick, args, withApp, submit, output, table, fmt, log, results }) {
  const db = 'sledge_bench_script';
  const rounds = Math.max(1, Number(args[args.indexOf('--rounds') + 1]) || 2);
  const seconds = quick ? 10 : 30;
  const bin = pgbenchBin();
  const psql = (sql) => execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', sql]).toString().trim();
  if (!psql(`select 1 from pg_database where datname='${db}'`)) psql(`create database ${db}`);
  // --protocol prepared (default) | extended: pgbench's -M and Sledge's target.prepared, the same on both sides.
  const protocol = args.includes('--protocol') ? args[args.indexOf('--protocol') + 1] : 'prepared';
  if (protocol !== 'prepared' && protocol !== 'extended') throw new Error(`--protocol ${protocol}: use prepared or extended`);
  // --workers N: the job's worker threads (script.workers; 0, the default, lets the server choose: one per core up to the VUs).
  const workers = args.includes('--workers') ? Number(args[args.indexOf('--workers') + 1]) : 0;
  if (!Number.isInteger(workers) || workers < 0) throw new Error('--workers N: a whole number of worker threads (0: the server chooses)');
  // --threads N: the native loop's threads (script.threads, pgbench's -j; 0, the default: one per core up to the VUs).
  const threads = args.includes('--threads') ? Number(args[args.indexOf('--threads') + 1]) : 0;
  if (!Number.isInteger(threads) || threads < 0) throw new Error('--threads N: a whole number of native threads (0: one per core)');
  // --rampup S: seconds Sledge's VUs run before its measured window (its JIT warm-up and connections out of the figure; default 0).
  const rampupS = args.includes('--rampup') ? Number(args[args.indexOf('--rampup') + 1]) : 0;
  if (!(rampupS >= 0)) throw new Error('--rampup S: seconds of rampup before the measured window (0 or more)');
  // --vu-loop auto | typescript: which loop Sledge's VUs may take (the server's vuLoop; auto takes the native libpq loop where it loads).
  const vuLoop = args.includes('--vu-loop') ? args[args.indexOf('--vu-loop') + 1] : 'auto';
  if (vuLoop !== 'auto' && vuLoop !== 'typescript') throw new Error(`--vu-loop ${vuLoop}: use auto or typescript`);
  // --pgbench-threads N: pgbench's -j (default 2, the bench's reference); 4 gives pgbench one thread per client, as Sledge's native loop has one per VU.
  const pgThreads = args.includes('--pgbench-threads') ? Number(args[args.indexOf('--pgbench-threads') + 1]) : 2;
  if (!Number.isInteger(pgThreads) || pgThreads < 1) throw new Error('--pgbench-threads N: pgbench -j, a whole number of threads (1 or more)');
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'postgres', password: '', database: db, prepared: protocol === 'prepared' };
  log(`== script: Sledge's script workload vs pgbench, tpcb-like, scale 1, 4 clients (pgbench -j ${pgThreads}), ${workers || 'auto'} worker thread(s), ${threads || 'auto'} native thread(s), ${seconds} s runs (Sledge after ${rampupS} s of rampup), ${rounds} round(s) of pgbench/Sledge pairs, protocol ${protocol}, vuLoop ${vuLoop}`);

  const pgbench = () => {
    const r = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', bin, '-h', '127.0.0.1', '-U', 'postgres', '-n', '-c', '4', '-j', String(pgThreads), '-T', String(seconds), '-M', protocol, '-b', 'tpcb-like', db], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pgbench failed: ${r.stderr}`);
    const tx = Number(r.stdout.match(/number of transactions actually processed: (\d+)/)?.[1] ?? 0);
    const tps = Number(r.stdout.match(/tps = ([\d.]+)/)?.[1] ?? 0);
    const m = r.stderr.match(/CPU ([\d.]+) ([\d.]+)/);
    const cpuS = m ? Number(m[1]) + Number(m[2]) : NaN;
    return { client: 'pgbench', tps, tx, cpuMsPerTx: tx ? (cpuS * 1000) / tx : NaN };
  };

  await withApp(async (s) => {
    log('   sledge build --workload script --scale 1');
    await submit(s, { type: 'build', workload: 'script', target, script: { scale: 1 } });
    const sledge = async () => {
      const job = await submit(s, { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'tpcb-like', weight: 1 }], vus: 4, rampup: rampupS / 60, duration: seconds / 60, workers, ...(threads ? { threads } : {}) }, metrics: { ash: false, cpu: false } });
      const r = job.result;
      const out = await output(s, job.id);
      const loop = [out.find((l) => l.startsWith('Virtual users run in')), out.find((l) => l.startsWith('The native loop runs'))].filter(Boolean).join('; ');
      return { client: 'Sledge', tps: r.tps, tx: r.transactions, failed: r.failed, cpuMsPerTx: r.clientCpuMsPer1000 / 1000, loop };
    };
    const runs = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [pgbench, sledge] : [sledge, pgbench];
      for (const f of order) {
        log(`   round ${round + 1}: ${f === pgbench ? 'pgbench' : 'Sledge'}`);
        runs.push({ round: round + 1, ...(await f()), load: loadavg()[0] });
      }
    }
    // pgbench's invariant after every run of both clients on the same tables.
    const check = await submit(s, { type: 'check', workload: 'script', target });
    const by = (c) => runs.filter((r) => r.client === c);
    const sum = (c) => ({ tps: mean(by(c).map((r) => r.tps)), cpu: mean(by(c).map((r) => r.cpuMsPerTx)) });
    const p = sum('pgbench');
    const sl = sum('Sledge');
    results.sections.script = { seconds, rounds, vuLoop, pgbenchThreads: pgThreads, threads, runs, pgbench: p, sledge: sl, tpsRatio: sl.tps / p.tps, cpuRatio: sl.cpu / p.cpu, invariant: check.summary };
    console.log(`\nScript workload vs pgbench: tpcb-like, scale 1, 4 clients, ${seconds} s each, interleaved\n` + table(
      ['round', 'client', 'TPS', 'transactions', 'client CPU ms/tx', 'load avg (1 min) after'],
      runs.map((r) => [r.round, r.client, fmt(r.tps, 0), r.tx, fmt(r.cpuMsPerTx, 3), fmt(r.load, 1)]),
    ));
    console.log(table(['client', 'mean TPS', 'TPS spread', 'mean CPU ms/tx', 'CPU spread'], ['pgbench', 'Sledge'].map((c) => [c, fmt(sum(c).tps, 0), spread(by(c).map((r) => r.tps), 0, fmt), fmt(sum(c).cpu, 3), spread(by(c).map((r) => r.cpuMsPerTx), 3, fmt)])));
    const loops = [...new Set(by('Sledge').map((r) => r.loop))];
    console.log(`Sledge's VUs: ${loops.join('; ')}`);
    console.log(`Sledge / pgbench: TPS ${fmt(sl.tps / p.tps, 2)}x, client CPU per transaction ${fmt(sl.cpu / p.cpu, 2)}x (issue 37's goal: <= 1.1x); ${check.summary}`);
    await submit(s, { type: 'delete', workload: 'script', target });
  }, { vuLoop });
  psql(`drop database if exists ${db}`);
}
