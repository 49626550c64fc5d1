/**
 * node bench/script-floor/raw-socket.mjs <database> [seconds]
 * The floor of a Node thread: tpcb-like's seven round trips over raw sockets (protocol 3, trust authentication
 * only), statements parsed once by name, pre-built Bind/Describe/Execute/Sync buffers, replies scanned for
 * ReadyForQuery; 4 connections in one thread; client CPU per transaction after 2 s of warm-up. docs/benchmarks.md.
 */
import net from 'node:net';
const [db, secs = '10'] = process.argv.slice(2);
const cstr = (s) => Buffer.from(s + '\0');
const msg = (t, body) => { const b = Buffer.alloc(5 + body.length); b.write(t, 0, 'latin1'); b.writeInt32BE(4 + body.length, 1); body.copy(b, 5); return b; };
const i16 = (n) => { const b = Buffer.alloc(2); b.writeInt16BE(n); return b; };
const i32 = (n) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; };
const SYNC = msg('S', Buffer.alloc(0));
const parse = (name, text) => msg('P', Buffer.concat([cstr(name), cstr(text), i16(0)]));
const bind = (name, vals) => msg('B', Buffer.concat([cstr(''), cstr(name), i16(0), i16(vals.length), ...vals.flatMap((v) => { const s = Buffer.from(String(v)); return [i32(s.length), s]; }), i16(0)]));
const EXEC = msg('E', Buffer.concat([cstr(''), i32(0)]));
const DESC = msg('D', Buffer.concat([Buffer.from('P'), cstr('')]));
const q = (text) => msg('Q', cstr(text));
class Conn {
  constructor(sock) { this.s = sock; this.buf = Buffer.alloc(0); this.wait = null; sock.on('data', (d) => this.onData(d)); }
  onData(d) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    let off = 0;
    while (this.buf.length - off >= 5) { const len = this.buf.readInt32BE(off + 1); if (this.buf.length - off < 1 + len) break; const t = this.buf[off]; if (t === 0x45) this.err = 'error'; if (t === 0x5a) { const w = this.wait; this.wait = null; const e = this.err; this.err = null; w(e); } off += 1 + len; }
    this.buf = this.buf.subarray(off);
  }
  rt(b) { return new Promise((res, rej) => { this.wait = (e) => e ? rej(new Error(e)) : res(); this.s.write(b); }); }
}
async function connect() {
  const s = net.connect(5432, '127.0.0.1'); s.setNoDelay(true);
  await new Promise((r) => s.once('connect', r));
  const c = new Conn(s);
  const body = Buffer.concat([i32(196608), cstr('user'), cstr('postgres'), cstr('database'), cstr(db), Buffer.from([0])]);
  await new Promise((res) => { c.wait = res; s.write(Buffer.concat([i32(body.length + 4), body])); });
  const names = { u1: 'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2', s1: 'SELECT abalance FROM pgbench_accounts WHERE aid = $1', u2: 'UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2', u3: 'UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', i1: 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)' };
  for (const [n, t] of Object.entries(names)) await c.rt(Buffer.concat([parse(n, t), SYNC]));
  return c;
}
const cs = []; for (let i = 0; i < 4; i++) cs.push(await connect());
let tx = 0, stop = false;
const r = (n) => 1 + Math.floor(Math.random() * n);
const BEGIN = q('BEGIN'), END = q('END');
const ex = (n, v) => Buffer.concat([bind(n, v), DESC, EXEC, SYNC]);
const loops = cs.map(async (c) => {
  while (!stop) {
    const aid = r(100000), bid = 1, tid = r(10), delta = r(10000) - 5000;
    await c.rt(BEGIN);
    await c.rt(ex('u1', [delta, aid])); await c.rt(ex('s1', [aid])); await c.rt(ex('u2', [delta, tid])); await c.rt(ex('u3', [delta, bid]));
    await c.rt(ex('i1', [tid, bid, aid, delta]));
    await c.rt(END);
    tx++;
  }
});
await new Promise((res) => setTimeout(res, 2000));
const tx0 = tx, c0 = process.cpuUsage(), t0 = performance.now();
await new Promise((res) => setTimeout(res, Number(secs) * 1000));
const c1 = process.cpuUsage(c0), n = tx - tx0, el = (performance.now() - t0) / 1000;
stop = true; await Promise.all(loops); for (const c of cs) c.s.end();
console.log(JSON.stringify({ raw: 'socket', tx: n, tps: Math.round(n / el), cpuMsPerTx: +(((c1.user + c1.system) / 1000) / n).toFixed(4), userMsPerTx: +((c1.user / 1000) / n).toFixed(4), sysMsPerTx: +((c1.system / 1000) / n).toFixed(4) }));
