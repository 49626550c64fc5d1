import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, Value, CheckItem,
  ErrorBody,
  Job,
  JobCreate,
  JobList,
  JobListQuery,
  OutputLine,
  SledgeError,
  Tcount,
  TARGET_SCHEMAS,
  TimingRow,
  JobResult,
  isTproccResult,
  VuStatus,
  BuildProgress,
  LatencySample,
  type EngineId,
  type Target,
  checkJobCreate,
  isTerminal, } from '@sledge/protocol';
import type { JobEngine } from '../engine/engine.js';
import { loadDriver } from '../engine/registry.js';
import { buildSnapshot } from '../engine/snapshot.js';
import { thresholdRoutes } from './thresholds.js';
import { checkedBy, type RouteDeps } from './route-deps.js';

/** Where an engine's TPM comes from, as its driver declares it (the job's own result says so once it has one). */
async function tpmSourceOf(engine: EngineId, target: Target | undefined): Promise<'engine' | 'client'> {
  try {
    const driver = await loadDriver(engine);
    return driver.features((target ?? Value.Default(TARGET_SCHEMAS[engine], { engine })) as never).tpmSource;
  } catch {
    return 'engine';
  }
}

const IdParams = Type.Object({ id: Type.String({ description: 'job id (24 hex characters)' }) });
const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody, 424: ErrorBody };

/** The job, or SLEDGE_E_NOT_FOUND on the `id` field. */
const jobGetter = (store: JobEngine['store']) => (id: string) => {
  const j = store.getJob(id);
  if (!j) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
  return j;
};

/** /api/v1/jobs: create (build, check, delete, run), list, detail, stop, delete, and every series a job keeps. */
export const jobRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  await app.register(jobLifecycleRoutes, deps);
  await app.register(jobSeriesRoutes, deps);
  await app.register(thresholdRoutes, deps);
};

/** Create, list, detail, stop, delete, output. */
const jobLifecycleRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  const mustGet = jobGetter(store);

  app.post(
    '/jobs',
    {
      // One check per variant of the union (picked by workload), every field error at once.
      validatorCompiler: checkedBy(checkJobCreate),
      schema: {
        tags: ['jobs'],
        summary: 'Create a job: build, check or delete a TPROC-C schema, or run the workload',
        description:
          'The body is validated and the target preflighted (driver loads, database reachable, credentials accepted, schema present or absent as the job needs) before anything is stored. Jobs run one at a time in submission order.',
        body: JobCreate,
        response: { 201: Job, ...errors },
      },
    },
    async (req, reply) => {
      const job = await engine.submit(req.body);
      return reply.status(201).send(job);
    },
  );

  app.get('/jobs', { schema: { tags: ['jobs'], summary: 'List jobs, newest first', querystring: JobListQuery, response: { 200: JobList, 400: ErrorBody } } }, async (req) => {
    const q = req.query;
    return store.listJobs(q);
  });

  app.get('/jobs/:id', { schema: { tags: ['jobs'], summary: 'Job detail', params: IdParams, response: { 200: Job, 404: ErrorBody } } }, async (req) => {
    return mustGet(req.params.id);
  });

  app.post('/jobs/:id/stop', { schema: { tags: ['jobs'], summary: 'Stop a queued or running job', params: IdParams, response: { 202: Job, ...errors } } }, async (req, reply) => {
    return reply.status(202).send(engine.stop(req.params.id));
  });

  app.delete('/jobs/:id', { schema: { tags: ['jobs'], summary: 'Delete a finished job and everything it stored', params: IdParams, response: { 204: Type.Null(), ...errors } } }, async (req, reply) => {
    const { id } = req.params;
    const j = mustGet(id);
    if (!isTerminal(j.status)) throw new SledgeError('SLEDGE_E_CONFLICT', `job ${id} is ${j.status}: stop it before deleting it`, { field: 'id' });
    store.deleteJob(id);
    return reply.status(204).send(null);
  });

  app.get(
    '/jobs/:id/result',
    { schema: { tags: ['jobs'], summary: "The job's result: its workload's document (TPROC-C: NOPM, TPM, active VUs, the TEST RESULT line; TPROC-H: query times, geomean, QphH)", params: IdParams, response: { 200: JobResult, 404: ErrorBody } } },
    async (req) => {
      const j = mustGet(req.params.id);
      if (!j.result) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${j.id} has no test result`, { field: 'id' });
      return j.result;
    },
  );

  app.get(
    '/jobs/:id/output',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Output lines (VU 0 = status stream, 1 = monitor, 2.. = virtual users)',
        params: IdParams,
        querystring: Type.Object({
          vu: Type.Optional(Type.Integer({ minimum: 0 })),
          afterSeq: Type.Optional(Type.Integer({ minimum: 0 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, default: 1000 })),
          q: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: Type.Object({ lines: Type.Array(OutputLine), total: Type.Integer() }), 404: ErrorBody },
      },
    },
    async (req) => {
      const j = mustGet(req.params.id);
      return store.getOutput(j.id, req.query);
    },
  );

};

/** The series a job keeps: transaction counter, time profile, latency, VUs, build progress, checks, snapshot. */
const jobSeriesRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  const mustGet = jobGetter(store);

  app.get('/jobs/:id/tcount', { schema: { tags: ['jobs'], summary: 'Transaction counter: engine TPM/NOPM samples and client tx/s per type', params: IdParams, response: { 200: Tcount, 404: ErrorBody } } }, async (req) => {
    const j = mustGet(req.params.id);
    const tc = store.getTcount(j.id);
    const cfg = j.config as { target?: Target; tprocc?: { tcRefreshSec?: number } };
    return { ...tc, tpmSource: (isTproccResult(j.result) ? j.result.tpmSource : undefined) ?? (await tpmSourceOf(j.engine, cfg.target)), refreshSec: cfg.tprocc?.tcRefreshSec ?? 10 };
  });

  app.get('/jobs/:id/timing', { schema: { tags: ['jobs'], summary: 'Time profile per transaction (summary rows have vu = 0)', params: IdParams, querystring: Type.Object({ vu: Type.Optional(Type.Integer({ minimum: 0 })) }), response: { 200: Type.Array(TimingRow), 404: ErrorBody } } }, async (req) => {
    const j = mustGet(req.params.id);
    return store.getTimings(j.id, req.query);
  });

  app.get('/jobs/:id/latency', { schema: { tags: ['jobs'], summary: 'Per-second latency percentiles per transaction type', params: IdParams, response: { 200: Type.Array(LatencySample), 404: ErrorBody } } }, async (req) => {
    return store.getLatency(mustGet(req.params.id).id);
  });

  app.get('/jobs/:id/vus', { schema: { tags: ['jobs'], summary: 'Virtual users: state and transaction counts', params: IdParams, response: { 200: Type.Array(VuStatus), 404: ErrorBody } } }, async (req) => {
    return store.getVus(mustGet(req.params.id).id);
  });

  app.get('/jobs/:id/progress', { schema: { tags: ['jobs'], summary: 'Schema build progress per worker and table', params: IdParams, response: { 200: BuildProgress, 404: ErrorBody } } }, async (req) => {
    const j = mustGet(req.params.id);
    const p = store.getProgress(j.id);
    if (!p) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${j.id} has no build progress`, { field: 'id' });
    return p;
  });

  app.get('/jobs/:id/check', { schema: { tags: ['jobs'], summary: 'checkschema results', params: IdParams, response: { 200: Type.Array(CheckItem), 404: ErrorBody } } }, async (req) => {
    return store.getCheck(mustGet(req.params.id).id) ?? [];
  });

  app.get('/jobs/:id/snapshot', { schema: { tags: ['jobs'], summary: 'Everything the job page needs (the WebSocket snapshot)', params: IdParams, response: { 200: Type.Unknown(), 404: ErrorBody } } }, async (req) => {
    const j = mustGet(req.params.id);
    const s = engine.stream(j.id);
    s.flush();
    return { ...buildSnapshot(store, j.id), seq: s.seq };
  });
};
