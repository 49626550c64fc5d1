/**
 * node bench/script-floor/harness.mjs <database> [seconds] [vus]
 * Sledge's script client (ScriptClient, built-in tpcb-like) over the PostgreSQL parameter session, all VUs in this
 * thread, no server or worker threads: client CPU (process.cpuUsage) per transaction after 2 s of warm-up.
 * The database holds pgbench's tables (pgbench -i, or sledge build --workload script). docs/benchmarks.md.
 */
import { fileURLToPath } from 'node:url';
const wt = fileURLToPath(new URL('../..', import.meta.url));
const [db, secs = '10', vusArg = '4'] = process.argv.slice(2);
if (!db) throw new Error('usage: node bench/script-floor/harness.mjs <database> [seconds] [vus]');
const core = await import(`${wt}/packages/core/dist/index.js`);
const pg = (await import(`${wt}/packages/driver-postgresql/dist/index.js`)).default;
const sql = await import(`${wt}/packages/sql/dist/index.js`);
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'postgres', password: '', database: db, prepared: process.env.PREPARED !== '0' };
const script = core.parseScript('tpcb-like', sql.builtinScript('tpcb-like'));
const vus = Number(vusArg);
let tx = 0;
let stop = false;
const sessions = [];
for (let i = 0; i < vus; i++) sessions.push(await pg.openParamSession(target, { name: `h37-${i}`, log: () => {} }));
const io = (s) => {
  const rendered = new WeakMap();
  const text = (st) => { let t = rendered.get(st); if (t === undefined) rendered.set(st, (t = core.renderStatement(st, (n) => s.placeholder(n)))); return t; };
  return { query: (st, p, w) => s.run(text(st), p, w), begin: () => s.begin(), commit: () => s.commit(), rollback: () => s.rollback(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)), debug: () => {} };
};
const loops = sessions.map(async (s, i) => {
  let x = 12345 + i;
  const rand = { uniform: () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; } };
  const c = new core.ScriptClient(rand, { clientId: i, scale: 1, defaultSeed: 1n, randomSeed: 1n });
  const sio = io(s);
  while (!stop) { await c.run(script, sio); tx++; }
});
// warm up 2 s, then measure
await new Promise((r) => setTimeout(r, 2000));
const tx0 = tx; const c0 = process.cpuUsage(); const t0 = performance.now();
await new Promise((r) => setTimeout(r, Number(secs) * 1000));
const c1 = process.cpuUsage(c0); const n = tx - tx0; const el = (performance.now() - t0) / 1000;
stop = true; await Promise.all(loops); for (const s of sessions) await s.close();
console.log(JSON.stringify({ tx: n, tps: Math.round(n / el), cpuMsPerTx: +(((c1.user + c1.system) / 1000) / n).toFixed(4), userMsPerTx: +((c1.user / 1000) / n).toFixed(4), sysMsPerTx: +((c1.system / 1000) / n).toFixed(4) }));
