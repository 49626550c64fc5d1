import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, ErrorBody, SledgeError, TX_TYPES, validityOfResult } from '@sledge/protocol';
import type { JobStore } from '@sledge/jobstore';
import { buildArtifact } from '../artifact/build.js';
import type { RouteDeps } from './route-deps.js';
import { reportRoutes } from './reports.js';

const csvCell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csv = (header: string[], rows: unknown[][]) => [header.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';

/** Everything a job holds, as one versioned JSON document (secrets were redacted when the job was stored). */
export function exportJson(store: JobStore, id: string) {
  const job = store.getJob(id);
  if (!job) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
  const metrics: Record<string, unknown[]> = {};
  for (const k of store.metricKinds(id)) metrics[k] = store.getMetrics(id, k, {});
  return {
    schema: 'sledge-job-v1',
    exportedAt: new Date().toISOString(),
    job,
    result: job.result ?? null,
    // Only a judged job has it: a job without thresholds exports the same document as before they existed.
    ...(job.thresholdResults ? { thresholds: { passed: job.passed ?? false, thresholdResults: job.thresholdResults } } : {}),
    // A run's validity verdict (also in result.validity); jobs stored before verdicts have none.
    ...(validityOfResult(job.result) ? { validity: validityOfResult(job.result) } : {}),
    timings: store.getTimings(id),
    tcount: store.getTcount(id),
    latency: store.getLatency(id),
    vus: store.getVus(id),
    progress: store.getProgress(id) ?? null,
    check: store.getCheck(id) ?? null,
    system: store.getSystem(id),
    metrics,
    output: allOutput(store, id),
  };
}

/** Every output line of a job, paged through the store. */
function allOutput(store: JobStore, id: string) {
  const lines: ReturnType<JobStore['getOutput']>['lines'] = [];
  for (let after = 0; ; ) {
    const page = store.getOutput(id, { afterSeq: after, limit: 100_000 });
    lines.push(...page.lines);
    if (page.lines.length < 100_000) return lines;
    after = page.lines[page.lines.length - 1]!.seq;
  }
}

/**
 * A Content-Disposition value for a download. The name is reduced to
 * characters that are safe in a quoted header parameter and a file name
 * (job ids are hex, so a real export keeps its name).
 */
export const attachment = (name: string): string => `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`;

const SERIES = ['tcount', 'client', 'timing', 'latency', 'output', 'vus', 'thresholds'] as const;
type Series = (typeof SERIES)[number];

export function exportCsv(store: JobStore, id: string, series: Series): string {
  if (!store.getJob(id)) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
  switch (series) {
    case 'tcount':
      return csv(['timestamp', 'tpm', 'nopm'], store.getTcount(id).engine.map((s) => [new Date(s.ts).toISOString(), s.tpm, s.nopm]));
    case 'client':
      return csv(
        ['timestamp', 'phase', ...TX_TYPES.map((t) => `${t}_per_s`), 'commits_per_s', 'rollbacks_per_s', 'errors_per_s'],
        store.getTcount(id).client.map((s) => [new Date(s.ts).toISOString(), s.phase ?? '', ...TX_TYPES.map((t) => s.rates[t]), s.commits, s.rollbacks, s.errors]),
      );
    case 'timing':
      return csv(
        ['proc', 'vu', 'calls', 'min_ms', 'avg_ms', 'max_ms', 'total_ms', 'p25_ms', 'p50_ms', 'p75_ms', 'p95_ms', 'p99_ms', 'sd_ms', 'ratio_pct', 'elapsed_ms'],
        store.getTimings(id).map((r) => [r.proc, r.vu, r.calls, r.minMs, r.avgMs, r.maxMs, r.totalMs, r.p25Ms, r.p50Ms, r.p75Ms, r.p95Ms, r.p99Ms, r.sdMs, r.ratioPct, r.elapsedMs]),
      );
    case 'latency':
      return csv(
        ['timestamp', 'type', 'count', 'p50_ms', 'p95_ms', 'p99_ms', 'max_ms'],
        store.getLatency(id).flatMap((s) => Object.entries(s.perType).map(([t, v]) => [new Date(s.ts).toISOString(), t, v.count, v.p50, v.p95, v.p99, v.max])),
      );
    case 'output':
      return csv(['seq', 'timestamp', 'vu', 'text'], allOutput(store, id).map((l) => [l.seq, new Date(l.ts).toISOString(), l.vu, l.text]));
    case 'vus':
      return csv(['vu', 'state', 'commits', 'rollbacks', 'errors'], store.getVus(id).map((v) => [v.vu, v.state, v.commits, v.rollbacks, v.errors]));
    case 'thresholds':
      return csv(['expr', 'metric', 'actual', 'limit', 'unit', 'ok', 'message'], (store.getJob(id)!.thresholdResults ?? []).map((r) => [r.expr, r.metric, r.actual, r.limit, r.unit, r.ok, r.message]));
  }
}

export const exportRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  // The self-contained HTML reports (routes/reports.ts) are exports too.
  await app.register(reportRoutes, { engine });
  app.get(
    '/jobs/:id/artifact',
    {
      schema: {
        tags: ['jobs'],
        summary: "HammerDB v6.0's JSON result artifact of a run (schema hammerdb-job-report-v1, as jobs?jobid=ID&summaryjson), as a download hdb_<id>.json",
        params: Type.Object({ id: Type.String() }),
        response: { 200: Type.Unknown(), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const job = engine.store.getJob(req.params.id.toUpperCase());
      if (!job) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${req.params.id} not found`, { field: 'id' });
      const doc = buildArtifact(engine.store, job);
      reply.header('content-disposition', attachment(`hdb_${job.id}.json`));
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(doc, null, 2));
    },
  );
  app.get(
    '/jobs/:id/export',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Export a job: format=json (everything) or format=csv&series=tcount|client|timing|latency|output|vus|thresholds',
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { default: 'json' })),
          series: Type.Optional(Type.Union(SERIES.map((s) => Type.Literal(s)) as never, { default: 'tcount' })),
        }),
        response: { 200: Type.Unknown(), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const q = req.query;
      // Build the body first: an unknown id is a 404 before any header is set from it.
      if ((q.format ?? 'json') === 'json') {
        const doc = exportJson(engine.store, id);
        reply.header('content-disposition', attachment(`sledge-job-${doc.job.id}.json`));
        return doc;
      }
      const series = q.series ?? 'tcount';
      const text = exportCsv(engine.store, id, series);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', attachment(`sledge-job-${id}-${series}.csv`));
      return reply.send(text);
    },
  );
};
