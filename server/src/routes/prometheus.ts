import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { JOB_STATUSES, JOB_TYPES, TX_TYPES } from '@sledge/protocol';
import type { RouteDeps } from './route-deps.js';

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
/** ms -> seconds, 6 significant digits. */
const sec = (ms: number) => Number((ms / 1000).toPrecision(6));
const labels = (l: Record<string, string>) => {
  const e = Object.entries(l);
  return e.length ? `{${e.map(([k, v]) => `${k}="${esc(v)}"`).join(',')}}` : '';
};

/**
 * GET /metrics in the Prometheus text format: job counts, and for the running
 * job its live NOPM/TPM, client tx/s per type, interval latency quantiles and
 * VU states. Scrape it every 5-15 s.
 */
export const prometheusRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  app.get('/metrics', { schema: { tags: ['server'], summary: 'Prometheus metrics' } }, async (_req, reply) => {
    const out: string[] = [];
    const metric = (name: string, type: 'gauge' | 'counter', help: string, rows: [Record<string, string>, number][]) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [l, v] of rows) if (Number.isFinite(v)) out.push(`${name}${labels(l)} ${v}`);
    };
    const counts: [Record<string, string>, number][] = [];
    for (const type of JOB_TYPES)
      for (const status of JOB_STATUSES) {
        const n = engine.store.listJobs({ type, status, limit: 1 }).total;
        if (n) counts.push([{ type, status }, n]);
      }
    metric('sledge_jobs', 'gauge', 'Jobs in the store by type and status', counts);
    metric('sledge_jobs_queued', 'gauge', 'Jobs waiting in the queue', [[{}, engine.queuedJobIds().length]]);
    const ctx = engine.activeContext;
    if (ctx) {
      const j = ctx.current;
      const base = { job_id: j.id, engine: j.engine, type: j.type };
      metric('sledge_job_running', 'gauge', 'The running job (value 1), labelled with its status', [[{ ...base, status: j.status }, 1]]);
      const e = ctx.latest.engine;
      if (e) {
        metric('sledge_tpm', 'gauge', "Engine transactions per minute (the database's own commit+rollback counter, last interval)", [[base, e.tpm]]);
        metric('sledge_nopm', 'gauge', 'New orders per minute (sum of d_next_o_id, last interval)', [[base, e.nopm]]);
      }
      const c = ctx.latest.client;
      if (c) {
        metric('sledge_client_tx_per_second', 'gauge', 'Client-side transactions per second by type (last second)', TX_TYPES.map((t) => [{ ...base, tx_type: t }, c.rates[t]] as [Record<string, string>, number]));
        metric('sledge_client_rollbacks_per_second', 'gauge', 'Rollbacks per second (last second)', [[base, c.rollbacks]]);
        metric('sledge_client_errors_per_second', 'gauge', 'Database errors per second (last second)', [[base, c.errors]]);
      }
      const lat = ctx.latest.latency;
      if (lat) {
        const rows: [Record<string, string>, number][] = [];
        for (const [t, v] of Object.entries(lat.perType)) {
          rows.push([{ ...base, tx_type: t, quantile: '0.5' }, sec(v.p50)], [{ ...base, tx_type: t, quantile: '0.95' }, sec(v.p95)], [{ ...base, tx_type: t, quantile: '0.99' }, sec(v.p99)]);
        }
        metric('sledge_latency_seconds', 'gauge', 'Transaction latency quantiles over the last second', rows);
      }
      const vus = ctx.latest.vus;
      if (vus) {
        const by: Record<string, number> = {};
        for (const v of vus) by[v.state] = (by[v.state] ?? 0) + 1;
        metric('sledge_vus', 'gauge', 'Virtual users by state', Object.entries(by).map(([state, n]) => [{ ...base, state }, n] as [Record<string, string>, number]));
      }
    }
    return reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8').send(out.join('\n') + '\n');
  });
};
