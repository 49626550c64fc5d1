import { poolRoutes, poolSessionTarget, SledgeError, type ConnectPool, type PoolPolicy, type Target } from '@sledge/protocol';
import type { Driver } from './driver.js';
import { Rng, streamKey } from './random.js';
import type { OpOutcome, OpSession, SessionOptions, VuWorkload } from './shapes/index.js';

/**
 * Connect pool dispatch (hammerdb.md §6.8), for any workload: a VU's session
 * that holds one session of the workload per pool connection (every VU opens
 * every connection, as HammerDB does) and sends each operation to one of the
 * connections its route lists, by the route's policy:
 *   first_named / last_named: the first / last of the list;
 *   random: uniform over the list;
 *   round_robin: this session's call count of that operation mod the list length.
 * The workload knows nothing of it: each connection is opened by its own
 * openSession with the job's target overridden by the connection's settings
 * (poolSessionTarget: without the target's admin secrets, which a session never uses).
 */
export class PooledSession implements OpSession {
  private last = 0;
  private readonly calls: number[];
  private readonly rng: Rng;

  constructor(
    private readonly sessions: OpSession[],
    private readonly routes: { conns: number[]; policy: PoolPolicy }[],
    seed: number,
  ) {
    this.calls = routes.map(() => 0);
    this.rng = new Rng(seed);
    if (sessions[0]?.lastWaitMs) this.lastWaitMs = () => this.sessions[this.last]?.lastWaitMs?.() ?? 0;
  }

  /** How many connections this session holds (the pool's). */
  get connections(): number {
    return this.sessions.length;
  }

  /** The connection (index into pool.connections) an operation goes to now; advances round_robin's count. */
  pick(op: number): number {
    const r = this.routes[op] ?? { conns: [0], policy: 'first_named' as const };
    const n = r.conns.length;
    switch (r.policy) {
      case 'last_named':
        return r.conns[n - 1]!;
      case 'random':
        return r.conns[this.rng.int(0, n - 1)]!;
      case 'round_robin':
        return r.conns[this.calls[op]!++ % n]!;
      default:
        return r.conns[0]!;
    }
  }

  run(op: number, input: unknown): Promise<OpOutcome> | OpOutcome {
    this.last = this.pick(op);
    return this.sessions[this.last]!.run(op, input);
  }

  /** The connection the last run() went to. */
  lastConnection(): number {
    return this.last;
  }

  /** Present when the workload's sessions report lock waits (engines sampled client-side). */
  readonly lastWaitMs?: () => number;

  async close(): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.close().catch(() => undefined)));
  }
}

/**
 * A VU's session on the job's target: the workload's own session, or with
 * `target.pool` a PooledSession over every pool connection. A connection that
 * cannot be opened closes the ones already open and throws, naming it.
 */
export async function openVuSession(workload: VuWorkload, driver: Driver, target: Target, opts: SessionOptions, options: unknown): Promise<OpSession> {
  const pool = (target as { pool?: ConnectPool }).pool;
  if (!pool) return workload.openSession(driver, target, opts, options);
  const sessions: OpSession[] = [];
  try {
    for (const c of pool.connections) {
      try {
        sessions.push(await workload.openSession(driver, poolSessionTarget(target, c), opts, options));
      } catch (e) {
        const msg = `pool connection ${c.name}: ${e instanceof Error ? e.message : String(e)}`;
        throw SledgeError.is(e) ? new SledgeError(e.code, msg, { cause: e, ...(e.field ? { field: e.field } : {}) }) : new Error(msg, { cause: e });
      }
    }
  } catch (e) {
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
    throw e;
  }
  return new PooledSession(sessions, poolRoutes(pool, workload.operations), streamKey(opts.vu, 0x9001));
}
