// Per-thread CPU a second during the steady part of a run in this process (issue 37 item 3): which Node threads
// cost what while the VUs run. The job is waited for with engine.idle() (no polling in the measured process).
// Usage: flock /tmp/sledge-db.lock node bench/script-floor/thread-rates.mjs [script|tprocc-mariadb] [seconds]
//   script: tpcb-like on PostgreSQL, 4 VUs, database sledge_bench_threads (built, dropped after).
//   tprocc-mariadb: TPROC-C on MariaDB, 4 VUs, an existing schema (SLEDGE_MARIA_DB, default sledge_bench_mariaref).
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
const { buildApp } = await import(new URL('../../server/dist/app.js', import.meta.url).href);
const kind = process.argv[2] ?? 'script';
const seconds = Number(process.argv[3] ?? 20);
const tick = Number(execFileSync('getconf', ['CLK_TCK']).toString());
const threads = () => {
  const m = new Map();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const st = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const name = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'));
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      const cs = Number(readFileSync(`/proc/self/task/${t}/status`, 'utf8').match(/voluntary_ctxt_switches:\s*(\d+)/)?.[1] ?? 0);
      m.set(t, { name, cpu: ((Number(f[11]) + Number(f[12])) / tick) * 1000, cs });
    } catch { /* ended */ }
  }
  return m;
};
const dataDir = mkdtempSync(join(tmpdir(), 'sledge-threads-'));
const s = await buildApp({ dataDir, logger: false, uiDir: null });
const submit = async (body) => {
  const r = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: body });
  const j = JSON.parse(r.body);
  if (r.statusCode !== 201) throw new Error(r.body);
  for (;;) {
    await s.engine.idle();
    const g = JSON.parse((await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${j.id}` })).body);
    if (['completed', 'failed', 'stopped', 'interrupted'].includes(g.status)) return g;
    await new Promise((r) => setTimeout(r, 200));
  }
};
const vusCommits = async (id) => JSON.parse((await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/vus` })).body).reduce((x, v) => x + v.commits + (v.rollbacks ?? 0), 0);
let target, body, drop;
if (kind === 'script') {
  const db = 'sledge_bench_threads_h39';
  const psql = (sql) => execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', sql]).toString().trim();
  psql(`drop database if exists ${db}`); psql(`create database ${db}`);
  target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'postgres', password: '', database: db };
  await submit({ type: 'build', workload: 'script', target, script: { scale: 1 } });
  body = { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'tpcb-like' }], vus: 4, rampup: 3 / 60, duration: seconds / 60 }, metrics: { ash: false, cpu: false } };
  drop = () => psql(`drop database if exists ${db}`);
} else {
  const db = process.env.SLEDGE_MARIA_DB ?? 'sledge_bench_mariaref';
  target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: db };
  body = { type: 'run', target, tprocc: { vus: 4, rampup: 3 / 60, duration: seconds / 60 }, metrics: { ash: false, cpu: false }, seed: 20261124 };
  drop = () => {};
}
const load0 = loadavg()[0];
// Read the threads 5 s after the submit (rampup 3 s + 2) and 2 s before the end: the steady part.
let a, b, ta, tb;
const win = seconds - 4;
setTimeout(() => { a = threads(); ta = performance.now(); }, 5000);
setTimeout(() => { b = threads(); tb = performance.now(); }, (5 + win) * 1000);
const job = await submit(body);
const tx = await vusCommits(job.id);
const wall = (tb - ta) / 1000;
const groups = new Map();
const wakes = new Map();
for (const [t, v] of b) {
  const before = a.get(t)?.cpu ?? 0;
  const g = v.name.startsWith('sledge-vu') ? 'native VU threads' : `${v.name} ${t === String(process.pid) ? '(main)' : t}`;
  groups.set(g, (groups.get(g) ?? 0) + v.cpu - before);
  wakes.set(g, (wakes.get(g) ?? 0) + v.cs - (a.get(t)?.cs ?? 0));
}
const tps = job.result.tps ?? job.result.transactions / job.result.measuredSeconds;
console.log(`${kind}: load ${load0.toFixed(1)}, ${tx} tx whole run, ~${tps?.toFixed?.(0)} TPS, window ${wall.toFixed(1)} s; clientCpuMsPer1000 ${(job.result.clientCpuMsPer1000 ?? job.result.clientCpuMsPer1000Tx)?.toFixed?.(1)}`);
let node = 0;
for (const [g, ms] of [...groups].sort((x, y) => y[1] - x[1])) {
  if (ms <= 0) continue;
  if (g !== 'native VU threads') node += ms;
  if (ms / wall < 0.3) continue;
  console.log(`${g.padEnd(20)} ${(ms / wall).toFixed(1).padStart(7)} ms/s ${(wakes.get(g) / wall).toFixed(1).padStart(8)} waits/s`);
}
console.log(`${'Node threads total'.padEnd(20)} ${(node / wall).toFixed(1).padStart(7)} ms/s`);
await s.app.close();
rmSync(dataDir, { recursive: true, force: true });
drop();
