import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, CHANGE_METRICS, EngineSettingsRecord, ErrorBody, JobChanges, SledgeError, StatementStatsRecord } from '@sledge/protocol';
import { runChanges } from '../engine/run-changes.js';
import type { RouteDeps } from './route-deps.js';
import '../plugins/route-config.js';

/**
 * What a run recorded about its engine (settings at its start, statement
 * statistics of its measured window) and what changed between two runs
 * (docs/compare.md).
 */
export const changeRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  const job = (id: string) => {
    if (!store.getJob(id)) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
  };

  app.get(
    '/jobs/:id/settings',
    {
      schema: {
        tags: ['jobs'],
        summary: "The engine settings a run recorded at its start (settings that can hold a secret are withheld: names only); null for other jobs and runs stored before settings were recorded",
        params: Type.Object({ id: Type.String() }),
        response: { 200: Type.Union([EngineSettingsRecord, Type.Null()]), 404: ErrorBody },
      },
    },
    async (req) => {
      job(req.params.id);
      return (store.getMetrics(req.params.id, CHANGE_METRICS.settings, { limit: 1, newest: true })[0]?.data as EngineSettingsRecord | undefined) ?? null;
    },
  );

  app.get(
    '/jobs/:id/statements',
    {
      schema: {
        tags: ['jobs'],
        summary: "Per-statement statistics of a run's measured window (top N by time), or why the engine has none; null for other jobs",
        params: Type.Object({ id: Type.String() }),
        response: { 200: Type.Union([StatementStatsRecord, Type.Null()]), 404: ErrorBody },
      },
    },
    async (req) => {
      job(req.params.id);
      return (store.getMetrics(req.params.id, CHANGE_METRICS.statements, { limit: 1, newest: true })[0]?.data as StatementStatsRecord | undefined) ?? null;
    },
  );

  app.get(
    '/compare/changes',
    {
      schema: {
        tags: ['jobs'],
        summary: 'What changed from run A to run B: settings that differ, statements whose mean time moved, TPROC-H plans that changed shape, and a regression verdict against the runs\' measured spread',
        querystring: Type.Object({ jobs: Type.String({ minLength: 1, maxLength: 200, description: 'two run job ids separated by a comma: A (the base), B' }) }),
        response: { 200: JobChanges, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const ids = req.query.jobs.split(',').map((s) => s.trim()).filter(Boolean);
      if (ids.length !== 2) throw new SledgeError('SLEDGE_E_VALIDATION', `jobs must name exactly two run jobs, A and B, separated by a comma (got ${ids.length})`, { field: 'jobs' });
      return runChanges(store, ids[0]!, ids[1]!);
    },
  );
};
