import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import {
  CheckItem,
  ErrorBody,
  Job,
  JobCreate,
  JobList,
  JobListQuery,
  OutputLine,
  SledgeError,
  Tcount,
  TimingRow,
  TproccResult,
  VuStatus,
  isTerminal,
  type JobListQuery as JobListQueryT,
} from '@sledge/protocol';
import type { JobEngine } from '../engine/engine.js';
import { buildSnapshot } from '../engine/snapshot.js';

/** A validator that accepts the body as sent (the handler validates it). */
export const passThrough = () => (data: unknown) => ({ value: data });

export interface RouteDeps {
  engine: JobEngine;
}

const IdParams = Type.Object({ id: Type.String({ description: 'job id (24 hex characters)' }) });
const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody, 424: ErrorBody };

/** /api/v1/jobs: create (build, check, delete, run), list, detail, stop, delete, and every series a job keeps. */
export const jobRoutes: FastifyPluginAsync<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  const mustGet = (id: string) => {
    const j = store.getJob(id);
    if (!j) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
    return j;
  };

  app.post(
    '/jobs',
    {
      // The schema documents the body; parseJobCreate validates it with friendlier, cross-field errors.
      validatorCompiler: passThrough,
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
    const q = req.query as JobListQueryT;
    return store.listJobs(q);
  });

  app.get('/jobs/:id', { schema: { tags: ['jobs'], summary: 'Job detail', params: IdParams, response: { 200: Job, 404: ErrorBody } } }, async (req) => {
    return mustGet((req.params as { id: string }).id);
  });

  app.post('/jobs/:id/stop', { schema: { tags: ['jobs'], summary: 'Stop a queued or running job', params: IdParams, response: { 202: Job, ...errors } } }, async (req, reply) => {
    return reply.status(202).send(engine.stop((req.params as { id: string }).id));
  });

  app.delete('/jobs/:id', { schema: { tags: ['jobs'], summary: 'Delete a finished job and everything it stored', params: IdParams, response: { 204: Type.Null(), ...errors } } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const j = mustGet(id);
    if (!isTerminal(j.status)) throw new SledgeError('SLEDGE_E_CONFLICT', `job ${id} is ${j.status}: stop it before deleting it`, { field: 'id' });
    store.deleteJob(id);
    return reply.status(204).send();
  });

  app.get(
    '/jobs/:id/result',
    { schema: { tags: ['jobs'], summary: 'TPROC-C result (NOPM, TPM, active VUs, the TEST RESULT line)', params: IdParams, response: { 200: TproccResult, 404: ErrorBody } } },
    async (req) => {
      const j = mustGet((req.params as { id: string }).id);
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
      const j = mustGet((req.params as { id: string }).id);
      return store.getOutput(j.id, req.query as { vu?: number; afterSeq?: number; limit?: number; q?: string });
    },
  );

  app.get('/jobs/:id/tcount', { schema: { tags: ['jobs'], summary: 'Transaction counter: engine TPM/NOPM samples and client tx/s per type', params: IdParams, response: { 200: Tcount, 404: ErrorBody } } }, async (req) => {
    const j = mustGet((req.params as { id: string }).id);
    const tc = store.getTcount(j.id);
    const cfg = j.config as { tprocc?: { tcRefreshSec?: number } };
    return { ...tc, tpmSource: j.engine === 'sqlite' ? 'client' : 'engine', refreshSec: cfg.tprocc?.tcRefreshSec ?? 10 };
  });

  app.get('/jobs/:id/timing', { schema: { tags: ['jobs'], summary: 'Time profile per transaction (summary rows have vu = 0)', params: IdParams, querystring: Type.Object({ vu: Type.Optional(Type.Integer({ minimum: 0 })) }), response: { 200: Type.Array(TimingRow), 404: ErrorBody } } }, async (req) => {
    const j = mustGet((req.params as { id: string }).id);
    return store.getTimings(j.id, req.query as { vu?: number });
  });

  app.get('/jobs/:id/latency', { schema: { tags: ['jobs'], summary: 'Per-second latency percentiles per transaction type', params: IdParams, response: { 404: ErrorBody } } }, async (req) => {
    return store.getLatency(mustGet((req.params as { id: string }).id).id);
  });

  app.get('/jobs/:id/vus', { schema: { tags: ['jobs'], summary: 'Virtual users: state and transaction counts', params: IdParams, response: { 200: Type.Array(VuStatus), 404: ErrorBody } } }, async (req) => {
    return store.getVus(mustGet((req.params as { id: string }).id).id);
  });

  app.get('/jobs/:id/progress', { schema: { tags: ['jobs'], summary: 'Schema build progress per worker and table', params: IdParams, response: { 404: ErrorBody } } }, async (req) => {
    const j = mustGet((req.params as { id: string }).id);
    const p = store.getProgress(j.id);
    if (!p) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${j.id} has no build progress`, { field: 'id' });
    return p;
  });

  app.get('/jobs/:id/check', { schema: { tags: ['jobs'], summary: 'checkschema results', params: IdParams, response: { 200: Type.Array(CheckItem), 404: ErrorBody } } }, async (req) => {
    return store.getCheck(mustGet((req.params as { id: string }).id).id) ?? [];
  });

  app.get('/jobs/:id/snapshot', { schema: { tags: ['jobs'], summary: 'Everything the job page needs (the WebSocket snapshot)', params: IdParams, response: { 404: ErrorBody } } }, async (req) => {
    const j = mustGet((req.params as { id: string }).id);
    const s = engine.stream(j.id);
    s.flush();
    return { ...buildSnapshot(store, j.id), seq: s.seq };
  });
};
