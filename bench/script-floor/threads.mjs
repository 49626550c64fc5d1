// Per-thread CPU of a script run in this process (tpcb-like, 4 VUs, 15 s; the server's default vuLoop, native where it loads):
// which threads the client CPU goes to, read from /proc/self/task/*/stat while the job runs (Linux).
// Usage: flock /tmp/sledge-db.lock node bench/script-floor/threads.mjs (database sledge_bench_threads, created and dropped).
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
const { buildApp } = await import(new URL('../../server/dist/app.js', import.meta.url).href);
const db = 'sledge_bench_threads';
const psql = (sql) => execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', sql]).toString().trim();
psql(`drop database if exists ${db}`); psql(`create database ${db}`);
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'postgres', password: '', database: db };
const dataDir = mkdtempSync(join(tmpdir(), 'sledge-threads-'));
const s = await buildApp({ dataDir, logger: false, uiDir: null });
let sampler = null;
const submit = async (body) => {
  const r = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: body });
  const j = JSON.parse(r.body);
  for (;;) { const g = JSON.parse((await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${j.id}` })).body); if (['completed','failed','stopped','interrupted'].includes(g.status)) return g; if (sampler) sampler(); await new Promise((r) => setTimeout(r, 200)); }
};
const tick = Number(execFileSync('getconf', ['CLK_TCK']).toString());
const threads = () => { const m = new Map(); for (const t of readdirSync('/proc/self/task')) { try { const st = readFileSync(`/proc/self/task/${t}/stat`, 'utf8'); const name = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')')); const f = st.slice(st.lastIndexOf(')') + 2).split(' '); m.set(t, { name, cpu: (Number(f[11]) + Number(f[12])) / tick * 1000 }); } catch { /* the thread ended between readdir and read */ } } return m; };
await submit({ type: 'build', workload: 'script', target, script: { scale: 1 } });
const a = threads();
const last = new Map();
sampler = () => { for (const [t, v] of threads()) last.set(t, v); };
const cpu0 = process.cpuUsage();
const job = await submit({ type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'tpcb-like' }], vus: 4, rampup: 0, duration: 0.25 }, metrics: { ash: false, cpu: false } });
const cpu1 = process.cpuUsage(cpu0);
sampler(); const b = last;
const vus = JSON.parse((await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/vus` })).body);
const tx = vus.reduce((x, v) => x + v.commits, 0);
const groups = new Map();
for (const [t, v] of b) { const before = a.get(t)?.cpu ?? 0; const g = v.name.startsWith('sledge-vu') ? 'native VU threads' : v.name; groups.set(g, (groups.get(g) ?? 0) + v.cpu - before); }
console.log(`transactions ${tx} (whole run), process CPU ${((cpu1.user + cpu1.system) / 1000).toFixed(0)} ms = ${((cpu1.user + cpu1.system) / 1000 / tx * 1000).toFixed(1)} us/tx; loop: ${job.result.line}`);
for (const [g, ms] of [...groups].sort((x, y) => y[1] - x[1])) if (ms > 0) console.log(`${g.padEnd(20)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / tx * 1000).toFixed(1).padStart(6)} us/tx`);
await s.app.close();
rmSync(dataDir, { recursive: true, force: true });
psql(`drop database if exists ${db}`);
