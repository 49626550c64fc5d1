import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, ErrorBody, SledgeError } from '@sledge/protocol';
import type { RouteDeps } from './route-deps.js';
import '../plugins/route-config.js';

/** One stored EXPLAIN plan of a TPROC-H job (metric kind `tproch-plan`) and the query text it explains (runs stored before it was kept have none). */
export const QueryPlan = Type.Object(
  {
    query: Type.Integer({ minimum: 1, maximum: 22 }),
    plan: Type.String(),
    sql: Type.Optional(Type.String({ description: 'the query as run: its statements with the substitution parameters filled in' })),
  },
  { $id: 'QueryPlan' },
);

/** One operator of a stored query profile, depth-first from the root. */
const ProfileOperator = Type.Object({
  depth: Type.Integer({ minimum: 0, description: '0 = the root operator; a child is one deeper than its parent' }),
  name: Type.String({ description: "the engine's operator name, e.g. HASH_JOIN" }),
  seconds: Type.Number({ description: "seconds the engine timed in this operator (its own, children excluded)" }),
  rows: Type.Number({ description: 'rows the operator produced' }),
  cpuSeconds: Type.Optional(Type.Number({ description: 'CPU seconds the engine counted for the operator and those below it (cumulative, as DuckDB counts cpu_time)' })),
  detail: Type.Optional(Type.String({ description: "the engine's detail of the operator (table, condition), one line" })),
});

/** The engine's profile of one query as a stream ran it (metric kind `tproch-profile`): engines whose sessions profile (DuckDB). */
export const QueryProfileRecord = Type.Object(
  {
    stream: Type.Integer(),
    set: Type.Integer(),
    query: Type.Integer({ minimum: 1, maximum: 22 }),
    position: Type.Integer(),
    profile: Type.Object({
      seconds: Type.Number({ description: 'query latency as the engine measured it' }),
      cpuSeconds: Type.Optional(Type.Number({ description: 'CPU seconds the engine counted for the query' })),
      operators: Type.Array(ProfileOperator),
    }),
  },
  { $id: 'QueryProfileRecord' },
);
type QueryProfileRecord = Type.Static<typeof QueryProfileRecord>;

/** GET /jobs/:id/plans: the EXPLAIN plan of each TPROC-H query, as the run stored them before its measured test. */
export const planRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  app.get(
    '/jobs/:id/plans',
    {
      schema: {
        tags: ['jobs'],
        summary: 'The EXPLAIN plan of each TPROC-H query of a run (taken with the first stream\'s parameters before the test; empty for other jobs or with explain off)',
        params: Type.Object({ id: Type.String() }),
        response: { 200: Type.Array(QueryPlan), 404: ErrorBody },
      },
    },
    async (req) => {
      const id = req.params.id;
      if (!store.getJob(id)) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
      return store
        .getMetrics(id, 'tproch-plan', {})
        .map((s) => s.data as { query: number; plan: string; sql?: unknown })
        .filter((d) => d && typeof d.query === 'number' && typeof d.plan === 'string')
        .map((d) => ({ query: d.query, plan: d.plan, ...(typeof d.sql === 'string' ? { sql: d.sql } : {}) }));
    },
  );

  app.get(
    '/jobs/:id/profiles',
    {
      schema: {
        tags: ['jobs'],
        summary: "The engine's profile (operator timings) of each TPROC-H query as each stream ran it, in run order (DuckDB; empty for engines without one or with explain off)",
        params: Type.Object({ id: Type.String() }),
        response: { 200: Type.Array(QueryProfileRecord), 404: ErrorBody },
      },
    },
    async (req) => {
      const id = req.params.id;
      if (!store.getJob(id)) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
      return store
        .getMetrics(id, 'tproch-profile', {})
        .map((s) => s.data as QueryProfileRecord)
        .filter((d) => d && typeof d.query === 'number' && d.profile && Array.isArray(d.profile.operators));
    },
  );
};
