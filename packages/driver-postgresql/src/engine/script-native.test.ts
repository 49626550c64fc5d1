import { readFileSync, readdirSync } from 'node:fs';
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
 * ring many times, a lost session that reconnects, and a stop; then several
 * VUs on one thread (script.threads): each VU's transactions counted on its
 * own session, a VU that waits on a lock, fails or cannot reconnect while
 * the others of its thread run on, and a stop and an abort that end every
 * VU of the thread whatever it waits for.
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
const STATEMENTS = ['INSERT INTO t (k, v) VALUES ($1, $2)', 'SELECT 1 / $1::int', 'SELECT count(*) FROM t WHERE k = $1', 'SELECT pg_advisory_xact_lock($1::bigint)'];
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

/** The names of this process's native VU threads (Linux: /proc/self/task/<tid>/comm). */
function vuThreadNames(): string[] {
  return readdirSync('/proc/self/task')
    .map((t) => {
      try {
        return readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim();
      } catch {
        return '';
      }
    })
    .filter((n) => n.startsWith('sledge-vu'))
    .sort();
}

/** `vus` VUs on `threads` native threads, their sessions tagged `tag` (sledge-vu-<slot + 2>~<tag>), told to go. */
function startMany(vus: number, threads: number, tag: string, delays: number[] = []) {
  const loaded = native.load();
  if (!loaded.available) throw new Error(loaded.reason);
  const sh = shared(vus);
  const spec = Array.from({ length: vus }, (_, i) => ({ index: i, position: i + 2, startDelayMs: delays[i] ?? 0 }));
  const h = loaded.start(target, { statements: STATEMENTS, ops: OPS, sessionTag: tag, vus: spec, threads, ...sh, faultVus: vus });
  Atomics.store(sh.control, 2, 1); // CTRL_GO
  const logs: string[] = [];
  const lat = Array.from({ length: vus }, () => 0);
  const poll = () => {
    h.drainLatency((slot) => lat[slot]!++);
    const p = h.poll();
    logs.push(...p.logs.map((l) => l.text));
    return p.live;
  };
  const ops = OPS.length;
  const count = (vu: number, op: number, kind: number) => sh.counters[(vu * ops + op) * 3 + kind]!;
  const sessions = (vu: number) => Array.from(sh.faults.subarray(vus * ops * F_SLOTS + vu * 2, vus * ops * F_SLOTS + vu * 2 + 2)); // lost, back
  const insert = (vu: number, k: number, v = 'row') => h.feed(vu).push(0, (x) => { x.sql(0, [String(k), v]); return undefined; });
  return { h, sh, logs, lat, poll, count, sessions, insert, app: (vu: number) => `sledge-vu-${vu + 2}~${tag}` };
}

describe('native script loop: several VUs on one thread', () => {
  it('runs each VU on its own session, every transaction counted once and in order, on one thread', async () => {
    await sql('TRUNCATE t');
    // the order rows were inserted in (ctid is not, with several sessions inserting)
    await sql('ALTER TABLE t ADD COLUMN IF NOT EXISTS seq bigserial');
    const vus = 4;
    const n = 300;
    const r = startMany(vus, 1, 'h40many');
    try {
      for (let i = 0; i < n; i++) for (let v = 0; v < vus; v++) expect(r.insert(v, v * 100000 + i, `vu${v}`)).toBe(true);
      await until(() => (r.poll(), Array.from({ length: vus }, (_, v) => r.count(v, 0, 0)).every((c) => c === n)), 60_000);
      const apps = await sql<{ a: string }>("SELECT application_name AS a FROM pg_stat_activity WHERE application_name LIKE 'sledge-vu-%~h40many' ORDER BY 1", 'postgres');
      expect(apps.map((x) => x.a)).toEqual([0, 1, 2, 3].map(r.app));
      if (process.platform === 'linux') expect(vuThreadNames()).toEqual(['sledge-vus-1']);
      Atomics.store(r.sh.control, 0, 1); // stop
      await until(() => r.poll() === 0, 20_000);
      expect(Array.from(r.sh.states)).toEqual([3, 3, 3, 3]);
      expect(r.h.results().map((x) => x.ok)).toEqual([true, true, true, true]);
      expect(r.lat).toEqual([n, n, n, n]);
      for (let v = 0; v < vus; v++) {
        expect(r.count(v, 1, 2) + r.count(v, 0, 2)).toBe(0);
        expect(r.logs).toContain(`Vuser ${v + 2}:RUNNING`);
        expect(r.logs).toContain(`Vuser ${v + 2}:FINISHED SUCCESS`);
      }
    } finally {
      r.h.dispose();
    }
    const rows = await sql<{ v: string; n: string; ordered: boolean }>(
      'SELECT v, count(*) AS n, bool_and(k = first_k + rn - 1) AS ordered FROM (SELECT v, k, min(k) OVER (PARTITION BY v) AS first_k, row_number() OVER (PARTITION BY v ORDER BY seq) AS rn FROM t) o GROUP BY v ORDER BY v',
    );
    expect(rows.map((x) => [x.v, Number(x.n), x.ordered])).toEqual([0, 1, 2, 3].map((v) => [`vu${v}`, n, true]));
  });

  it('keeps the other VUs of a thread running while one waits on a lock, one fails statements and one cannot reconnect', async () => {
    await sql('TRUNCATE t');
    const r = startMany(4, 1, 'h40stall');
    const locker = new pg.Client({ host: target.host, port: target.port, user: target.superuser, password: target.superuserPassword, database: DB });
    await locker.connect();
    try {
      // every VU connected and ran one transaction
      for (let v = 0; v < 4; v++) r.insert(v, 10 * v);
      await until(() => (r.poll(), [0, 1, 2, 3].every((v) => r.count(v, 0, 0) === 1)), 30_000);
      // VU 0 waits on an advisory lock the test holds
      await locker.query('SELECT pg_advisory_lock(4040)');
      r.h.feed(0).push(0, (x) => { x.control('begin'); x.sql(3, ['4040']); x.sql(0, ['1', 'locked']); x.control('commit'); return undefined; });
      const waiting = async () => (await sql<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = '${r.app(0)}' AND wait_event_type = 'Lock'`, 'postgres'))[0]!.n === '1';
      for (let k = 0; k < 600 && !(await waiting()); k++) await new Promise((res) => setTimeout(res, 50));
      expect(await waiting()).toBe(true);
      // VU 2 loses its session, and the database refuses new ones: it backs off and retries
      await sql(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS false`, 'postgres');
      await sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${r.app(2)}'`, 'postgres');
      r.insert(2, 21);
      await until(() => (r.poll(), r.sessions(2)[0] === 1), 30_000);
      // meanwhile VU 1 (every other transaction fails) and VU 3 run all theirs
      const n = 200;
      for (let i = 0; i < n; i++) {
        if (i % 2) r.h.feed(1).push(1, (x) => { x.control('begin'); x.sql(0, [String(1000 + i), 'fails']); x.sql(1, ['0']); x.control('commit'); return undefined; });
        else r.insert(1, 1000 + i, 'vu1');
        r.insert(3, 3000 + i, 'vu3');
      }
      await until(() => (r.poll(), r.count(1, 0, 0) === 1 + n / 2 && r.count(1, 1, 2) === n / 2 && r.count(3, 0, 0) === 1 + n), 60_000);
      // ... while VU 0 still waits on the lock and VU 2 is not back
      expect(r.count(0, 0, 0)).toBe(1);
      expect(r.sessions(2)).toEqual([1, 0]);
      expect(Atomics.load(r.sh.states, 2)).toBe(1); // connecting
      expect(fault(Array.from(r.sh.faults), 1 * OPS.length + 1, 4)).toBe(n / 2); // VU 1's 'fails' errors: class other
      await sql(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`, 'postgres');
      await locker.query('SELECT pg_advisory_unlock(4040)');
      await until(() => (r.poll(), r.count(0, 0, 0) === 2 && r.sessions(2)[1] === 1), 30_000);
      r.insert(2, 22);
      await until(() => (r.poll(), r.count(2, 0, 0) === 2), 30_000);
      Atomics.store(r.sh.control, 0, 1);
      await until(() => r.poll() === 0, 20_000);
      expect(r.h.results().every((x) => x.ok)).toBe(true);
      expect(r.count(2, 0, 2)).toBe(1); // the insert that found the session gone: one error, class connection
      expect(fault(Array.from(r.sh.faults), 2 * OPS.length + 0, 1)).toBe(1);
      expect(r.logs).toContain('Vuser 4: connection lost, reconnecting');
      expect(r.logs.some((l) => /^Vuser 4: reconnected after \d+\.\d s$/.test(l))).toBe(true);
      expect(r.logs).toContain('fails Procedure Error (other 22012): division by zero');
    } finally {
      r.h.dispose();
      await locker.end();
      await sql(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`, 'postgres');
    }
    const rows = await sql<{ v: string; n: string }>("SELECT v, count(*) AS n FROM t WHERE v <> 'row' GROUP BY v ORDER BY v");
    // VU 1's failing transactions were rolled back; VU 0's locked one committed once the lock was free
    expect(rows.map((x) => [x.v, Number(x.n)])).toEqual([['locked', 1], ['vu1', 100], ['vu3', 200]]);
  });

  it('a stop ends at once the VUs of a thread that wait for their start delay, their feed or a reconnect; an abort cancels the statement of one that waits on a lock', async () => {
    await sql('TRUNCATE t');
    // VU 0 starts in an hour; VU 1 has an empty feed; VU 2 will back off; VU 3 will wait on a lock
    const r = startMany(4, 1, 'h40stop', [3_600_000]);
    const locker = new pg.Client({ host: target.host, port: target.port, user: target.superuser, password: target.superuserPassword, database: DB });
    await locker.connect();
    try {
      for (const v of [1, 2, 3]) r.insert(v, v);
      await until(() => (r.poll(), [1, 2, 3].every((v) => r.count(v, 0, 0) === 1)), 30_000);
      await locker.query('SELECT pg_advisory_lock(4041)');
      r.h.feed(3).push(0, (x) => { x.control('begin'); x.sql(3, ['4041']); x.control('commit'); return undefined; });
      await sql(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS false`, 'postgres');
      await sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${r.app(2)}'`, 'postgres');
      r.insert(2, 20);
      await until(() => (r.poll(), r.sessions(2)[0] === 1), 30_000);
      const waiting = async () => (await sql<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = '${r.app(3)}' AND wait_event_type = 'Lock'`, 'postgres'))[0]!.n === '1';
      for (let k = 0; k < 600 && !(await waiting()); k++) await new Promise((res) => setTimeout(res, 50));
      expect(await waiting()).toBe(true);
      expect(Array.from(r.sh.states)).toEqual([0, 2, 1, 2]); // not started, running, connecting, running
      Atomics.store(r.sh.control, 0, 1); // stop: a statement in flight runs to its end, so VU 3 still waits
      await until(() => (r.poll(), [0, 1, 2].every((v) => Atomics.load(r.sh.states, v) === 3)), 20_000);
      expect(Atomics.load(r.sh.states, 3)).toBe(2);
      expect(r.poll()).toBe(1); // its thread runs on for VU 3
      Atomics.store(r.sh.control, 0, 2); // abort: the waiting statement is cancelled
      await until(() => r.poll() === 0, 20_000);
      expect(Array.from(r.sh.states)).toEqual([3, 3, 3, 3]);
      expect(r.h.results().map((x) => x.ok)).toEqual([true, true, true, true]);
      expect(r.count(3, 0, 0)).toBe(1);
      expect(r.logs).not.toContain('Vuser 2:RUNNING'); // VU 0 never started
      for (const p of [3, 4, 5]) expect(r.logs).toContain(`Vuser ${p}:FINISHED SUCCESS`);
    } finally {
      r.h.dispose();
      await locker.end();
      await sql(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`, 'postgres');
    }
  });

  it('refuses a thread count below 1', () => {
    const loaded = native.load();
    if (!loaded.available) throw new Error(loaded.reason);
    expect(() => loaded.start(target, { statements: STATEMENTS, ops: OPS, vus: [{ index: 0, position: 2, startDelayMs: 0 }], threads: 0, ...shared(1), faultVus: 1 })).toThrow(/sledge_pgvu: threads must be an integer in 1\.\./);
  });
});
