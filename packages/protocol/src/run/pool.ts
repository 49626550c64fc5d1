import Type from 'typebox';

/**
 * Connect pool (HammerDB's cluster connect pool, hammerdb.md §6.8): several
 * targets (hosts or databases) in one run. Each pool connection is the job's
 * target with some of its connection settings overridden (host, port,
 * database, user, password ...); each operation of the workload picks its
 * connection per call from its own list by its policy. Every VU opens every
 * connection. The monitor (NOPM/TPM) stays on the job's target itself.
 *
 * This file holds the schemas and pure helpers only (it imports nothing of
 * ours); the checks that need the engine's target schema are in pool-check.ts.
 */

/** How an operation picks one of its connections (HammerDB's policies; round_robin = per-operation call count mod list length). */
export const POOL_POLICIES = ['first_named', 'last_named', 'random', 'round_robin'] as const;
export type PoolPolicy = (typeof POOL_POLICIES)[number];

export const PoolConnection = Type.Object(
  {
    name: Type.String({ title: 'Name', minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9_.-]+$', description: 'Unique in the pool; operations name their connections by it' }),
  },
  {
    additionalProperties: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
    title: 'Pool connection',
    description: "The target's connection settings this connection overrides (e.g. host, port, database, user, password); the rest are the target's",
  },
);
export type PoolConnection = { name: string } & Record<string, string | number | boolean>;

export const PoolOpRoute = Type.Object(
  {
    connections: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 256, description: 'Names of pool connections, in order' }),
    policy: Type.Union(
      POOL_POLICIES.map((p) => Type.Literal(p)),
      { default: 'first_named', description: 'first_named, last_named, random, or round_robin (call count mod list length)' },
    ),
  },
  { additionalProperties: false },
);
export type PoolOpRoute = { connections: string[]; policy: PoolPolicy };

export const ConnectPool = Type.Object(
  {
    connections: Type.Array(PoolConnection, { minItems: 1, maxItems: 256 }),
    ops: Type.Optional(
      Type.Record(Type.String(), PoolOpRoute, {
        description: "Per operation of the workload (TPROC-C: neworder, payment, delivery, stocklevel, orderstatus). An operation left out uses the first connection.",
      }),
    ),
  },
  { additionalProperties: false, $id: 'ConnectPool', title: 'Connect pool', 'x-group': 'pool' },
);
export interface ConnectPool {
  connections: PoolConnection[];
  ops?: Record<string, PoolOpRoute>;
}

/** The job's target as pool connection `c` sees it: the target without its pool, with c's overrides. */
export function poolConnectionTarget<T extends object>(target: T, c: PoolConnection): T {
  const { pool: _pool, ...base } = target as T & { pool?: unknown };
  const { name: _name, ...over } = c;
  return { ...base, ...over } as T;
}

/**
 * Per operation: the indexes (into pool.connections) it may use and its
 * policy. An operation the pool does not route uses the first connection.
 * Names are assumed checked (pool-check.ts); an unknown one is skipped.
 */
export function poolRoutes(pool: ConnectPool, operations: readonly string[]): { conns: number[]; policy: PoolPolicy }[] {
  const index = new Map(pool.connections.map((c, i) => [c.name, i]));
  return operations.map((op) => {
    const r = pool.ops?.[op];
    const conns = (r?.connections ?? []).map((n) => index.get(n)).filter((i): i is number => i !== undefined);
    return conns.length ? { conns, policy: r!.policy } : { conns: [0], policy: 'first_named' as const };
  });
}

/** Client-side results of a pooled run (HammerDB's CLIENT SIDE TPM line, per operation and per target). */
export const PoolResultFields = {
  clientTpm: Type.Optional(
    Type.Record(Type.String(), Type.Integer(), {
      description: 'Connect pool runs: client-side transactions per minute per operation, counts of the whole run ÷ (rampup + duration minutes) as HammerDB computes them',
    }),
  ),
  targets: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ description: 'pool connection name' }),
        sessions: Type.Integer({ description: 'sessions the VUs opened on this connection' }),
        transactions: Type.Integer({ description: 'commits + rollbacks run on this connection' }),
        clientTpm: Type.Record(Type.String(), Type.Integer(), { description: 'per operation, ÷ (rampup + duration minutes)' }),
      }),
      { description: 'Connect pool runs: per pool connection' },
    ),
  ),
};
