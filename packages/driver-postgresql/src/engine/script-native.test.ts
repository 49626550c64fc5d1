import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { ScriptFeedSink } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { driver } from '../index.js';
import { contractTarget } from '../testing/contract.js';

/**
 * The script workload's native loop (Driver.scriptNativeVu: sledge_pgvu's
 * script threads) on the local PostgreSQL, fed by hand: commits, a failed
 * statement that rolls its transaction back and counts one error by class,
 * an interpreter error after statements that ran (rolled back, class
 * other), NULL and non-ASCII text parameters, a feed that wraps around its
 * ring many times, a lost session that reconnects, and a stop.
 */
const DB = 'sledge_h38ns_native';
const target: PostgresqlTarget = contractTarget(DB, 'postgres', { password: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres' });
const native = driver.scriptNativeVu!;

async function sql<T extends Record<string, unknown>>(text: string, database = DB): Promise<T[]> {
  const c = new pg.Client({ host: target.host, port: target.port, user: target.superuser, password: target.superuserPassword, database });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await sql(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`, 'postgres');
  await sql(`CREATE DATABASE ${DB}`, 'postgres');
  await sql('CREATE TABLE t (k int, v text)');
});
afterAll(async () => {
  await sql(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`, 'postgres');
});

const OPS = ['ok', 'fails', 'broken'];
const STATEMENTS = ['INSERT INTO t (k, v) VALUES ($1, $2)', 'SELECT 1 / $1::int', 'SELECT count(*) FROM t WHERE k = $1'];
const F_SLOTS = 11;

function shared(vus: number) {
  const ops = OPS.length;
  return {
    counters: new Int32Array(new SharedArrayBuffer(vus * ops * 3 * 4)),
    states: new Int32Array(new SharedArrayBuffer(vus * 4)),
    control: new Int32Array(new SharedArrayBuffer(4 * 4)),
    faults: new Int32Array(new SharedArrayBuffer((vus * ops * F_SLOTS + vus * 2) * 4)),
  };
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const t0 = performance.now();
  while (!cond()) {
    if (performance.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

type Step = (s: ScriptFeedSink) => string | undefined;

/** Starts one VU, pushes `txs` (op, steps), lets it run them all, stops it; counters, faults and log lines back. */
async function runFed(txs: [number, Step][]) {
  const loaded = native.load();
  if (!loaded.available) throw new Error(loaded.reason);
  const sh = shared(1);
  const h = loaded.start(target, { statements: STATEMENTS, ops: OPS, vus: [{ index: 0, position: 2, startDelayMs: 0 }], ...sh, faultVus: 1 });
  const logs: string[] = [];
  const lat: number[] = [];
  try {
    const feed = h.feed(0);
    Atomics.store(sh.control, 2, 1); // CTRL_GO
    for (const [op, step] of txs) {
      while (!feed.flush()) await new Promise((r) => setTimeout(r, 5));
      feed.push(op, step);
    }
    await until(() => {
      if (!feed.flush()) return false;
      h.drainLatency((_s, op) => lat.push(op));
      logs.push(...h.poll().logs.map((l) => l.text));
      return feed.backlog() === 0;
    }, 60_000);
    const done = () => {
      const c = sh.counters;
      return OPS.reduce((n, _o, op) => n + c[op * 3]! + c[op * 3 + 2]!, 0);
    };
    await until(() => done() >= txs.length, 30_000);
    Atomics.store(sh.control, 0, 1); // CTRL_RUN = stop
    await until(() => {
      const p = h.poll();
      logs.push(...p.logs.map((l) => l.text));
      return p.live === 0;
    }, 5000);
    h.drainLatency((_s, op) => lat.push(op));
    const results = h.results();
    const kinds = (op: number) => [sh.counters[op * 3]!, sh.counters[op * 3 + 1]!, sh.counters[op * 3 + 2]!];
    return { commits: OPS.map((_o, op) => kinds(op)[0]), errors: OPS.map((_o, op) => kinds(op)[2]), faults: Array.from(sh.faults), logs, lat, results, state: Atomics.load(sh.states, 0) };
  } finally {
    h.dispose();
  }
}

const fault = (f: number[], op: number, cls: number) => f[op * F_SLOTS + cls]!;

describe('native script loop on PostgreSQL', () => {
  it('is offered where the addon is built, and not with target.prepared off', () => {
    expect(native.load().available).toBe(true);
    expect(native.unsupported?.(target)).toBeUndefined();
    expect(native.unsupported?.({ ...target, prepared: false })).toMatch(/target\.prepared is off/);
    expect(native.placeholder(3)).toBe('$3');
  });

  it('commits, rolls back a transaction whose statement failed (one error, its class), and one whose script failed part way', async () => {
    await sql('TRUNCATE t');
    const r = await runFed([
      [0, (s) => { s.control('begin'); s.sql(0, ['1', 'one']); s.control('commit'); return undefined; }],
      [1, (s) => { s.control('begin'); s.sql(0, ['2', 'two']); s.sql(1, ['0']); s.control('commit'); return undefined; }],
      [2, (s) => { s.control('begin'); s.sql(0, ['3', 'three']); return 'broken:4: division by zero'; }],
      [0, (s) => { s.sql(0, ['4', null]); s.sql(0, ['5', 'é€ ünï']); return undefined; }],
      [1, (s) => { s.sql(0, ['6', 'autocommit']); s.sql(1, ['0']); return undefined; }],
    ]);
    expect(r.commits).toEqual([2, 0, 0]);
    expect(r.errors).toEqual([0, 2, 1]);
    // the class of each error (ERROR_CLASSES: serialization, connection, timeout, constraint, other)
    expect(fault(r.faults, 1, 4)).toBe(2);
    expect(fault(r.faults, 2, 4)).toBe(1);
    expect(r.lat).toEqual([0, 0]);
    expect(r.state).toBe(3);
    expect(r.results).toHaveLength(1);
    expect(r.results[0]!.ok).toBe(true);
    const rows = await sql<{ k: number; v: string | null }>('SELECT k, v FROM t ORDER BY k');
    // 2 and 3 were rolled back; 6 ran outside a transaction before the failure, as in pgbench
    expect(rows).toEqual([{ k: 1, v: 'one' }, { k: 4, v: null }, { k: 5, v: 'é€ ünï' }, { k: 6, v: 'autocommit' }]);
    expect(r.logs).toContain('fails Procedure Error (other 22012): division by zero');
    expect(r.logs).toContain('broken Procedure Error (other): broken:4: division by zero');
  });

  it('runs a feed that wraps around its ring many times, in order, every transaction once', async () => {
    await sql('TRUNCATE t');
    const n = 2500;
    const pad = 'x'.repeat(300); // ~340 bytes a record: 850 KB through a 256 KiB feed
    const txs: [number, Step][] = Array.from({ length: n }, (_, i) => [0, (s) => { s.sql(0, [String(i), `${i}:${pad}`]); return undefined; }]);
    const r = await runFed(txs);
    expect(r.commits[0]).toBe(n);
    expect(r.errors).toEqual([0, 0, 0]);
    const [agg] = await sql<{ n: string; bad: string; ordered: boolean }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE v <> k || ':' || repeat('x', 300)) AS bad, (SELECT bool_and(k = rn - 1) FROM (SELECT k, row_number() OVER (ORDER BY ctid) AS rn FROM t) o) AS ordered FROM t`,
    );
    expect(Number(agg!.n)).toBe(n);
    expect(Number(agg!.bad)).toBe(0);
    expect(agg!.ordered).toBe(true);
  });

  it('counts a lost session (connection class), reconnects, and runs on', async () => {
    await sql('TRUNCATE t');
    const loaded = native.load();
    if (!loaded.available) throw new Error(loaded.reason);
    const sh = shared(1);
    const h = loaded.start(target, { statements: STATEMENTS, ops: OPS, sessionTag: 'h38lost', vus: [{ index: 0, position: 2, startDelayMs: 0 }], ...sh, faultVus: 1 });
    const logs: string[] = [];
    const poll = () => logs.push(...h.poll().logs.map((l) => l.text));
    try {
      const feed = h.feed(0);
      Atomics.store(sh.control, 2, 1);
      const insert = (k: number) => feed.push(0, (x) => { x.sql(0, [String(k), 'row']); return undefined; });
      insert(1);
      await until(() => (poll(), sh.counters[0] === 1), 10_000);
      await sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'sledge-vu-2~h38lost'", 'postgres');
      insert(2);
      await until(() => (poll(), sh.counters[2] === 1), 10_000);
      insert(3);
      await until(() => (poll(), sh.counters[0] === 2), 20_000);
      Atomics.store(sh.control, 0, 1);
      await until(() => h.poll().live === 0, 5000);
      expect(fault(Array.from(sh.faults), 0, 1)).toBe(1); // connection class
      expect(Array.from(sh.faults.subarray(OPS.length * F_SLOTS))).toEqual([1, 1]); // lost, back
      expect(logs.some((l) => /^ok Procedure Error \(connection/.test(l))).toBe(true);
      expect(logs.some((l) => /^Vuser 2: reconnected after/.test(l))).toBe(true);
      expect((await sql<{ k: number }>('SELECT k FROM t ORDER BY k')).map((r) => r.k)).toEqual([1, 3]);
    } finally {
      h.dispose();
    }
  });
});
