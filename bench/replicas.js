/**
 * pnpm bench replicas [--quick] [--pairs 2] [--sizes 10,50,100,200]   (or replicas-pg / replicas-sim for one part)
 *
 * Scale-out over NATS, measured on this machine:
 * - pg:  PostgreSQL (sledge_bench_replicas, 4 warehouses): 4 VUs local vs 4 VUs on two `sledge replica`
 *        processes (2 + 2) joined to a nats-server of the bench's own (token auth), interleaved A/B
 *        (2 pairs; --quick 1 pair of short runs). NOPM, TPM, client CPU ms per 1000 transactions over the
 *        measured window: local = this process (the server and its VU threads); replicas = both replica
 *        processes + this process (the primary). Ratios replicas/local per pair, their mean and spread.
 * - sim: one primary aggregating N = 10, 50, 100, 200 simulated replicas (apps/cli/test/replica-sim.ts in a
 *        child process, 4 VUs each at 500 tx/s per VU) on a SQLite target: the primary's CPU over the window
 *        (process.cpuUsage of this process; the simulator's CPU is not in it) per second in total, per
 *        replica and per added replica, frames/s, nats-server's CPU (JetStream stores every frame), and whether the run's numbers stayed exact (Σ replica transactions = the run's =
 *        what the simulated VUs did; time profile calls = what they sent).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './ref-common.js';

const TOKEN = 'bench-replicas-token';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A nats-server of the bench's own: free port, own JetStream directory, token auth. */
async function startNats() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sledge-bench-nats-'));
  const p = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir, '--auth', TOKEN], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (out += d));
  for (let i = 0; !/Server is ready/.test(out); i++) {
    if (i > 150 || p.exitCode !== null) throw new Error(`nats-server did not start: ${out}`);
    await sleep(100);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    pid: p.pid,
    stop: async () => {
      p.kill('SIGTERM');
      await new Promise((r) => (p.exitCode !== null ? r() : p.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CPU seconds (user + system, all threads) of one live process. */
const procCpuS = (pid) => {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const selfCpuS = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const get = async (s, url) => JSON.parse((await s.app.inject({ method: 'GET', url })).body);

async function waitReady(s, names, timeoutMs = 60_000) {
  const t0 = Date.now();
  for (;;) {
    const l = await get(s, '/api/v1/replicas');
    if (names.every((n) => l.replicas.some((r) => r.name === n && r.state === 'ready'))) return;
    if (Date.now() - t0 > timeoutMs) throw new Error(`replicas ${names.join(', ')} not ready: ${JSON.stringify(l.replicas.map((r) => [r.name, r.state]))}`);
    await sleep(200);
  }
}

/**
 * A run through the REST API with CPU taken at the measured window's ends (status measuring -> next),
 * polled every 200 ms (±0.2 s on windows of 1-2 min): `cpu()` gives the CPU seconds counted for the run
 * (this process, plus replicas').
 */
async function measuredRun(s, body, cpu) {
  const r = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: body });
  if (r.statusCode !== 201) throw new Error(`run: ${r.body}`);
  const id = JSON.parse(r.body).id;
  let c0 = null;
  let t0 = 0;
  let c1 = null;
  let t1 = 0;
  for (;;) {
    const j = await get(s, `/api/v1/jobs/${id}`);
    if (j.status === 'measuring' && c0 === null) {
      c0 = cpu();
      t0 = performance.now();
    } else if (c0 !== null && c1 === null && j.status !== 'measuring') {
      c1 = cpu();
      t1 = performance.now();
    }
    if (['completed', 'failed', 'stopped', 'interrupted'].includes(j.status)) {
      if (j.status !== 'completed') throw new Error(`run job ${id} ${j.status}: ${j.error?.message}`);
      return { job: j, cpuS: c1 - c0, windowS: (t1 - t0) / 1000 };
    }
    await sleep(200);
  }
}

/** The monitor's lines (VU 1): a run on many replicas has more VU lines than one page holds. */
const outputLines = async (s, id) => (await get(s, `/api/v1/jobs/${id}/output?vu=1&limit=10000`)).lines.map((l) => l.text);

/** The primary's own CPU over the exact window, from its monitor line (process.cpuUsage in the server). */
function primaryCpu(lines) {
  const m = lines.map((t) => t.match(/^Primary CPU: ([\d.]+) ms per 1000 transactions \((\d+) transactions in ([\d.]+) s\)/)).find(Boolean);
  return m ? { cpuMs: (Number(m[1]) * Number(m[2])) / 1000, seconds: Number(m[3]) } : null;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const spread = (xs) => `${((Math.min(...xs) - 1) * 100).toFixed(1)}% .. ${((Math.max(...xs) - 1) * 100).toFixed(1)}%`;

async function benchPg(b, nats) {
  const { ROOT, quick, args, withApp, submit, table, fmt, log, pgTarget } = b;
  const target = pgTarget('sledge_bench_replicas');
  const rampup = quick ? 0.1 : 1;
  const duration = quick ? 0.25 : 2;
  const pairsArg = args.includes('--pairs') ? Number(args[args.indexOf('--pairs') + 1]) : undefined;
  const pairs = pairsArg ?? (quick ? 1 : 2);
  const cli = join(ROOT, 'apps/cli/dist/main.js');
  const reps = ['bench-r1', 'bench-r2'].map((name) => {
    const p = spawn(process.execPath, [cli, 'replica', '--nats', nats.url, '--name', name], { env: { ...process.env, SLEDGE_NATS_TOKEN: TOKEN }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    return { name, p, log: () => err };
  });
  try {
    return await withApp(
      async (s) => {
        await waitReady(s, reps.map((r) => r.name));
        log('   build 4 warehouses (2 build VUs)');
        await submit(s, { type: 'delete', target });
        await submit(s, { type: 'build', target, tprocc: { warehouses: 4, buildVus: 2 }, metrics: { ash: false, cpu: false } });
        const runs = [];
        for (let i = 0; i < pairs; i++) {
          for (const on of ['local', 'replicas']) {
            log(`   pair ${i + 1}: 4 VUs ${on}: rampup ${rampup} min, ${duration} min measured (load ${loadavg()[0].toFixed(2)})`);
            const body = { type: 'run', target, tprocc: { vus: 4, rampup, duration }, metrics: { ash: false, cpu: false }, ...(on === 'replicas' ? { placement: { on: 'replicas', replicas: reps.map((r) => r.name) } } : {}) };
            const cpu = on === 'local' ? selfCpuS : () => selfCpuS() + reps.reduce((a, r) => a + procCpuS(r.p.pid), 0);
            const m = await measuredRun(s, body, cpu);
            const res = m.job.result;
            const lines = await outputLines(s, m.job.id);
            // Local: the monitor's loop line; replicas: each replica's prepare line ends with its loop line.
            const loops = lines.filter((t) => /Virtual users run in /.test(t));
            const loop = loops.length && loops.every((t) => !/run in JavaScript/.test(t)) ? 'native' : 'javascript';
            const prim = on === 'replicas' ? primaryCpu(lines) : null;
            runs.push({
              pair: i + 1,
              on,
              nopm: res.nopm,
              tpm: res.tpm,
              transactions: res.transactions,
              measuredSeconds: res.measuredSeconds,
              cpuS: m.cpuS,
              windowS: m.windowS,
              msPer1000: (m.cpuS * 1e6) / res.transactions,
              ...(prim ? { primaryMsPer1000: (prim.cpuMs * 1000) / res.transactions } : {}),
              ...(res.clientCpuMsPer1000Tx !== undefined ? { serverReportedMsPer1000: res.clientCpuMsPer1000Tx } : {}),
              ...(res.replicas ? { replicas: res.replicas.map((x) => ({ name: x.name, transactions: x.transactions, clientTpm: x.clientTpm })) } : {}),
              loop,
              load1: loadavg()[0],
            });
          }
        }
        await submit(s, { type: 'delete', target });
        const ratios = (k) => Array.from({ length: pairs }, (_, i) => runs.find((r) => r.pair === i + 1 && r.on === 'replicas')[k] / runs.find((r) => r.pair === i + 1 && r.on === 'local')[k]);
        const summary = { nopm: ratios('nopm'), tpm: ratios('tpm'), msPer1000: ratios('msPer1000') };
        console.log(
          `\nPostgreSQL, 4 warehouses, 4 VUs: local vs two sledge replica processes (2 + 2 VUs) on this machine, interleaved (rampup ${rampup} min, ${duration} min measured)\n` +
            table(
              ['pair', 'VUs on', 'VU loop', 'NOPM', 'TPM', 'client CPU ms / 1000 tx', 'of which primary', 'load avg 1 min at the end'],
              runs.map((r) => [r.pair, r.on === 'local' ? 'local (server threads)' : 'replicas r1 + r2', r.loop, r.nopm, r.tpm, fmt(r.msPer1000, 1), r.primaryMsPer1000 !== undefined ? fmt(r.primaryMsPer1000, 2) : '-', fmt(r.load1, 2)]),
            ) +
            '\n' +
            table(
              ['replicas / local', 'per pair', 'mean', 'spread'],
              Object.entries(summary).map(([k, xs]) => [k === 'msPer1000' ? 'client CPU per 1000 tx' : k.toUpperCase(), xs.map((x) => fmt(x, 3)).join(', '), fmt(mean(xs), 3), spread(xs)]),
            ),
        );
        return { rampup, duration, runs, ratios: summary, means: Object.fromEntries(Object.entries(summary).map(([k, xs]) => [k, mean(xs)])) };
      },
      { nats: { url: nats.url, token: TOKEN, lossMs: 5000 } },
    );
  } finally {
    for (const r of reps) r.p.kill('SIGTERM');
    await Promise.all(reps.map((r) => new Promise((res) => (r.p.exitCode !== null ? res() : r.p.once('exit', res)))));
  }
}

/** The simulator (replica-sim.ts) in a child process run by vite-node (vitest's), reports as JSON lines. */
function startSim(ROOT, opts) {
  const cliDir = join(ROOT, 'apps/cli');
  const req = createRequire(createRequire(join(cliDir, 'package.json')).resolve('vitest/package.json'));
  const viteNode = join(dirname(req.resolve('vite-node/package.json')), 'vite-node.mjs');
  const p = spawn(process.execPath, [viteNode, join(cliDir, 'test/replica-sim.ts')], { cwd: cliDir, env: { ...process.env, SLEDGE_SIM_CHILD: '1', SLEDGE_SIM: JSON.stringify(opts) }, stdio: ['pipe', 'pipe', 'pipe'] });
  const events = [];
  // A job's report is one line of megabytes: keep its chunks, search only the new one for the line's end.
  let pending = [];
  let err = '';
  p.stderr.on('data', (d) => (err += d));
  p.stdout.setEncoding('utf8');
  p.stdout.on('data', (d) => {
    let s = d;
    let i;
    while ((i = s.indexOf('\n')) >= 0) {
      const line = pending.join('') + s.slice(0, i);
      pending = [];
      s = s.slice(i + 1);
      if (line.startsWith('{')) events.push(JSON.parse(line));
    }
    if (s) pending.push(s);
  });
  const waitEvent = async (pred, what, timeoutMs = 60_000) => {
    const t0 = Date.now();
    for (;;) {
      const e = events.find(pred);
      if (e) return e;
      if (p.exitCode !== null) throw new Error(`replica-sim exited: ${err}`);
      if (Date.now() - t0 > timeoutMs) throw new Error(`replica-sim: no ${what} within ${timeoutMs} ms: ${err}`);
      await sleep(100);
    }
  };
  return {
    pid: p.pid,
    joined: () => waitEvent((e) => e.event === 'joined', 'joined'),
    job: (id) => waitEvent((e) => e.event === 'job' && e.report.jobId === id, `report of job ${id}`),
    stop: async () => {
      p.stdin.end();
      await new Promise((r) => (p.exitCode !== null ? r() : p.once('exit', r)));
    },
  };
}

async function benchSim(b, nats) {
  const { ROOT, quick, args, withApp, submit, table, fmt, log } = b;
  const sizesArg = args.includes('--sizes') ? args[args.indexOf('--sizes') + 1] : undefined;
  const sizes = sizesArg ? sizesArg.split(',').map(Number) : quick ? [10, 50] : [10, 50, 100, 200];
  const VUS = 4;
  const TX_PER_VU = 500;
  const duration = quick ? 0.25 : 1;
  const target = { engine: 'sqlite', file: 'replicas-sim.sqlite' };
  return withApp(
    async (s) => {
      await submit(s, { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 }, metrics: { ash: false, cpu: false } });
      const rows = [];
      for (const n of sizes) {
        const sim = startSim(ROOT, { url: nats.url, token: TOKEN, replicas: n, namePrefix: `n${n}-`, txPerVu: TX_PER_VU });
        try {
          const { names } = await sim.joined();
          await waitReady(s, names);
          log(`   ${n} simulated replicas x ${VUS} VUs at ${TX_PER_VU} tx/s per VU: rampup 0, ${duration} min measured (load ${loadavg()[0].toFixed(2)})`);
          const simCpu0 = procCpuS(sim.pid);
          const natsCpu0 = procCpuS(nats.pid);
          const m = await measuredRun(s, { type: 'run', target, placement: { on: 'replicas', replicas: names }, tprocc: { vus: n * VUS, rampup: 0, duration, tcRefreshSec: 10 }, metrics: { ash: false, cpu: false } }, selfCpuS);
          const simCpuS = procCpuS(sim.pid) - simCpu0;
          const natsCpuS = procCpuS(nats.pid) - natsCpu0;
          const res = m.job.result;
          const rep = (await sim.job(m.job.id)).report;
          const lines = await outputLines(s, m.job.id);
          const prim = primaryCpu(lines);
          const timings = (await get(s, `/api/v1/jobs/${m.job.id}/timing`)).filter((t) => t.vu === 0);
          const simWindow = rep.replicas.reduce((a, x) => a + x.windowTransactions, 0);
          const replicaSum = res.replicas.reduce((a, x) => a + x.transactions, 0);
          const profileCalls = rep.replicas.reduce((a, x) => a + Object.values(x.profile).reduce((c, p) => c + p.pairs.filter((_, i) => i % 2 === 1).reduce((u, v) => u + v, 0), 0), 0);
          const timingCalls = timings.reduce((a, t) => a + t.calls, 0);
          const perReplicaExact = res.replicas.every((x) => rep.replicas.find((y) => y.name === x.name)?.windowTransactions === x.transactions);
          const ticks = rep.replicas.reduce((a, x) => a + x.ticks, 0);
          const bytes = rep.replicas.reduce((a, x) => a + x.tickBytes, 0);
          const runS = ticks / n; // one tick per second per replica (plus the final one)
          const row = {
            replicas: n,
            vus: n * VUS,
            sessions: n * VUS,
            txPerSec: simWindow / prim.seconds,
            primaryMsPerS: prim.cpuMs / prim.seconds,
            primaryMsPerSPerReplica: prim.cpuMs / prim.seconds / n,
            primaryPctOfCore: prim.cpuMs / prim.seconds / 10,
            framesPerS: ticks / runS,
            kibPerTick: bytes / ticks / 1024,
            simChildCpuPctOfCore: (simCpuS / m.windowS) * 100,
            natsMsPerS: (natsCpuS * 1000) / m.windowS,
            exact: replicaSum === res.transactions && res.transactions === simWindow && perReplicaExact && timingCalls === profileCalls,
            transactions: res.transactions,
            simWindowTransactions: simWindow,
            timingCalls,
            profileCalls,
            lost: res.replicas.filter((x) => x.lostAt !== undefined).length,
            load1: loadavg()[0],
          };
          // What one more replica costs: the slope from the previous size (the primary's own base cost, monitor and store, cancels).
          const prev = rows[rows.length - 1];
          if (prev) row.marginalMsPerSPerReplica = (row.primaryMsPerS - prev.primaryMsPerS) / (n - prev.replicas);
          rows.push(row);
          log(`     primary ${fmt(row.primaryMsPerS, 1)} ms/s (${fmt(row.primaryMsPerSPerReplica, 2)} per replica), exact: ${row.exact}`);
        } finally {
          await sim.stop();
        }
      }
      console.log(
        `\nOne primary aggregating N simulated replicas (${VUS} VUs each at ${TX_PER_VU} tx/s per VU, one tick per second each), SQLite monitor, rampup 0, ${duration} min measured; primary CPU = process.cpuUsage of the server process over the window (the simulator runs in a child process)\n` +
          table(
            ['replicas', 'sessions', 'tx/s', 'frames/s', 'KiB/tick', 'primary CPU ms/s', '% of a core', 'ms/s per replica', 'marginal ms/s per replica', 'nats-server CPU ms/s', 'simulator CPU % of a core', 'lost', 'exact'],
            rows.map((r) => [r.replicas, r.sessions, fmt(r.txPerSec, 0), fmt(r.framesPerS, 0), fmt(r.kibPerTick, 1), fmt(r.primaryMsPerS, 1), fmt(r.primaryPctOfCore, 1), fmt(r.primaryMsPerSPerReplica, 2), r.marginalMsPerSPerReplica === undefined ? '-' : fmt(r.marginalMsPerSPerReplica, 2), fmt(r.natsMsPerS, 0), fmt(r.simChildCpuPctOfCore, 0), r.lost, r.exact ? 'yes' : `NO (${r.transactions} vs ${r.simWindowTransactions}; calls ${r.timingCalls} vs ${r.profileCalls})`]),
          ),
      );
      return { vusPerReplica: VUS, txPerVu: TX_PER_VU, duration, rows };
    },
    { nats: { url: nats.url, token: TOKEN, lossMs: 5000 } },
  );
}

export async function benchReplicas(b) {
  const { sections, results, log } = b;
  const part = (p) => sections.includes('replicas') || sections.includes(`replicas-${p}`);
  const out = { cpu: readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length, natsServer: execFileSync('nats-server', ['--version']).toString().trim() };
  const nats = await startNats();
  try {
    if (part('pg')) {
      log('== replicas pg: PostgreSQL 4 VUs local vs on two sledge replica processes, interleaved');
      out.pg = await benchPg(b, nats);
    }
    if (part('sim')) {
      log('== replicas sim: one primary aggregating simulated replicas');
      out.sim = await benchSim(b, nats);
    }
  } finally {
    await nats.stop();
  }
  results.sections.replicas = out;
}
