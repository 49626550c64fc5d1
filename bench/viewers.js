/**
 * pnpm bench viewers [--viewers N] [--duration MIN] [--rounds N]
 *
 * What watching a run costs the run: NOPM of a 1-VU SQLite TPROC-C run (1 warehouse, not paced) with 0 and
 * with N (default 50) WebSocket viewers subscribed to its stream, in the order A B B A per round, and the
 * server's peak RSS. The server is its own process (server/dist/main.js), the viewers are sockets in this
 * one, as a dashboard's browsers would be. Until 2026-12-01 this comparison was printed by
 * server/test/faults/ws-viewers.test.ts, which asserted nothing of it; the test keeps the 50-viewer runs and
 * their assertions (every viewer gets the result, no gap in seq, RSS bound).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, opt, spread } from './ref-common.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TERMINAL = ['completed', 'failed', 'stopped', 'interrupted'];

async function startServer(ROOT, dataDir) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'server/dist/main.js')], {
    env: { ...process.env, SLEDGE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SLEDGE_AGENT: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited at start: ${err}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 30 s: ${err}`);
    }
    await sleep(100);
  }
  const rssMb = () => {
    const m = readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
    return m ? Number(m[1]) / 1024 : NaN;
  };
  const stop = () =>
    new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', () => r());
      child.kill('SIGTERM');
    });
  return { base, rssMb, stop };
}

async function runJob(srv, body) {
  const r = await fetch(`${srv.base}/api/v1/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const job = await r.json();
  if (r.status !== 201) throw new Error(`${body.type}: ${JSON.stringify(job)}`);
  return job;
}

async function waitJob(srv, id) {
  for (;;) {
    const j = await (await fetch(`${srv.base}/api/v1/jobs/${id}`)).json();
    if (TERMINAL.includes(j.status)) {
      if (j.status !== 'completed') throw new Error(`job ${id} ${j.status}: ${j.error?.message}`);
      return j;
    }
    await sleep(250);
  }
}

/** N sockets subscribed to the job's stream; resolves once every one is open. */
async function openViewers(WebSocket, srv, jobId, n) {
  const socks = [];
  for (let i = 0; i < n; i++) {
    const ws = new WebSocket(`${srv.base.replace('http', 'ws')}/api/v1/ws`);
    const v = { ws, result: false, frames: 0 };
    ws.on('message', (m) => {
      v.frames++;
      if (JSON.parse(String(m)).t === 'result') v.result = true;
    });
    await new Promise((res, rej) => {
      ws.once('open', res);
      ws.once('error', rej);
    });
    ws.send(JSON.stringify({ t: 'subscribe', jobId }));
    socks.push(v);
  }
  return socks;
}

export async function benchViewers({ ROOT, quick, args, table, fmt, log }) {
  const viewers = Number(opt(args, 'viewers', 50));
  const duration = Number(opt(args, 'duration', quick ? 0.1 : 0.2));
  const rounds = Number(opt(args, 'rounds', quick ? 1 : 3));
  const WebSocket = createRequire(join(ROOT, 'server/package.json'))('ws');
  const dataDir = mkdtempSync(join(tmpdir(), 'sledge-bench-viewers-'));
  const srv = await startServer(ROOT, dataDir);
  const target = { engine: 'sqlite', file: 'viewers.sqlite' };
  try {
    log(`== viewers: 1-VU SQLite runs of ${duration} min with 0 and ${viewers} WebSocket viewers, ${rounds} round(s) of A B B A`);
    await waitJob(srv, (await runJob(srv, { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 } })).id);
    const idleRss = srv.rssMb();
    const rows = [];
    const byN = { 0: [], [viewers]: [] };
    for (let r = 0; r < rounds; r++) {
      for (const n of [0, viewers, viewers, 0]) {
        const job = await runJob(srv, { type: 'run', target, tprocc: { vus: 1, rampup: 0, duration, tcRefreshSec: 2 } });
        const socks = await openViewers(WebSocket, srv, job.id, n);
        let peak = srv.rssMb();
        const sampler = setInterval(() => (peak = Math.max(peak, srv.rssMb())), 250);
        let done;
        try {
          done = await waitJob(srv, job.id);
          const end = Date.now() + 10_000;
          while (socks.some((v) => !v.result) && Date.now() < end) await sleep(100);
        } finally {
          clearInterval(sampler);
          for (const v of socks) v.ws.close();
        }
        const got = socks.filter((v) => v.result).length;
        byN[n].push(done.result.nopm);
        rows.push({ round: r + 1, viewers: n, nopm: done.result.nopm, tpm: done.result.tpm, peakRssMb: peak, resultFrames: `${got}/${n}` });
        log(`  round ${r + 1}, ${n} viewers: NOPM ${done.result.nopm}, peak RSS ${fmt(peak, 0)} MB, result frame at ${got} of ${n}`);
      }
    }
    const a = spread(byN[0]);
    const b = spread(byN[viewers]);
    const ratio = b.mean / a.mean;
    console.log(
      `\nWebSocket viewers on a 1-VU SQLite run (${duration} min runs, A B B A x ${rounds}; idle server RSS ${fmt(idleRss, 0)} MB)\n` +
        table(
          ['viewers', 'runs', 'NOPM mean', 'min', 'max', 'CV %', `vs 0 viewers`],
          [
            [0, a.n, fmt(a.mean, 0), a.min, a.max, fmt(a.cvPct, 1), '1.00x'],
            [viewers, b.n, fmt(b.mean, 0), b.min, b.max, fmt(b.cvPct, 1), fmt(ratio, 3) + 'x'],
          ],
        ) +
        '\n\n' +
        table(
          ['round', 'viewers', 'NOPM', 'TPM', 'peak RSS MB', 'got result'],
          rows.map((x) => [x.round, x.viewers, x.nopm, x.tpm, fmt(x.peakRssMb, 0), x.resultFrames]),
        ),
    );
    return { viewers, duration, rounds, idleRssMb: idleRss, rows, ratio, zero: a, many: b };
  } finally {
    await srv.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
