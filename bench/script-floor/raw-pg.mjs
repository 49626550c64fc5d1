/**
 * node bench/script-floor/raw-pg.mjs <database> [seconds]
 * node-postgres alone: tpcb-like's seven round trips with named statements, 4 connections in one thread, no
 * interpreter (Math.random draws); client CPU per transaction after 2 s of warm-up. docs/benchmarks.md.
 */
import { createRequire } from 'node:module';
const require = createRequire(new URL('../../packages/driver-postgresql/package.json', import.meta.url));
const { Client } = require('pg');
const [db, secs = '10'] = process.argv.slice(2);
const cs = [];
for (let i = 0; i < 4; i++) { const c = new Client({ host: '127.0.0.1', user: 'postgres', database: db }); await c.connect(); cs.push(c); }
let tx = 0, stop = false;
const r = (n) => 1 + Math.floor(Math.random() * n);
const loops = cs.map(async (c) => {
  while (!stop) {
    const aid = r(100000), bid = 1, tid = r(10), delta = r(10000) - 5000;
    await c.query('BEGIN');
    await c.query({ name: 'u1', text: 'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2', values: [delta, aid] });
    await c.query({ name: 's1', text: 'SELECT abalance FROM pgbench_accounts WHERE aid = $1', values: [aid] });
    await c.query({ name: 'u2', text: 'UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2', values: [delta, tid] });
    await c.query({ name: 'u3', text: 'UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', values: [delta, bid] });
    await c.query({ name: 'i1', text: 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)', values: [tid, bid, aid, delta] });
    await c.query('END');
    tx++;
  }
});
await new Promise((res) => setTimeout(res, 2000));
const tx0 = tx, c0 = process.cpuUsage(), t0 = performance.now();
await new Promise((res) => setTimeout(res, Number(secs) * 1000));
const c1 = process.cpuUsage(c0), n = tx - tx0, el = (performance.now() - t0) / 1000;
stop = true; await Promise.all(loops); for (const c of cs) await c.end();
console.log(JSON.stringify({ raw: 'pg', tx: n, tps: Math.round(n / el), cpuMsPerTx: +(((c1.user + c1.system) / 1000) / n).toFixed(4), userMsPerTx: +((c1.user / 1000) / n).toFixed(4), sysMsPerTx: +((c1.system / 1000) / n).toFixed(4) }));
