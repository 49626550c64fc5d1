import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, ErrorBody, SledgeError } from '@sledge/protocol';
import { MAX_COMPARE, MIN_COMPARE, renderCompareReport, renderJobReport } from '../report/index.js';
import type { RouteDeps } from './route-deps.js';
import '../plugins/route-config.js';

/** The download name; every name here is built from stored job ids (24 hex characters), so it needs no quoting. */
const attachment = (name: string) => `attachment; filename="${name}"`;

const HtmlBody = Type.String({ description: 'a self-contained HTML page (inline CSS and SVG charts; it loads nothing)' });

/** Self-contained HTML reports: one job, a comparison of jobs, a shared job. */
export const reportRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  const sendHtml = (reply: { header: (k: string, v: string) => unknown }, name: string, body: string): string => {
    reply.header('content-type', 'text/html; charset=utf-8');
    reply.header('content-disposition', attachment(name));
    return body;
  };

  app.get(
    '/jobs/:id/report',
    {
      schema: {
        tags: ['jobs'],
        summary: "A job's self-contained HTML report: result, configuration (redacted), charts, time profile, ASH, CPU, TPROC-H query times",
        params: Type.Object({ id: Type.String() }),
        response: { 200: HtmlBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      // The body first: an unknown id is a 404 before any header is set from it.
      const body = renderJobReport(store, req.params.id);
      return sendHtml(reply, `sledge-${req.params.id}.html`, body);
    },
  );

  app.get(
    '/compare/report',
    {
      schema: {
        tags: ['jobs'],
        summary: `A self-contained HTML comparison of ${MIN_COMPARE} to ${MAX_COMPARE} jobs of one workload (the first is the base)`,
        querystring: Type.Object({ jobs: Type.String({ minLength: 1, maxLength: 1000, description: 'job ids separated by commas' }) }),
        response: { 200: HtmlBody, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const ids = req.query.jobs.split(',').map((s) => s.trim()).filter(Boolean);
      const body = renderCompareReport(store, ids);
      return sendHtml(reply, `sledge-compare-${ids.join('-')}.html`, body);
    },
  );

  app.get(
    '/shared/:token/report',
    {
      config: { public: true },
      schema: {
        tags: ['share'],
        summary: "A shared job's HTML report (read-only, works without an API token)",
        params: Type.Object({ token: Type.String({ minLength: 8, maxLength: 64 }) }),
        response: { 200: HtmlBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const jobId = store.resolveShare(req.params.token);
      if (!jobId) throw new SledgeError('SLEDGE_E_NOT_FOUND', 'this share link does not exist or was revoked', { field: 'token' });
      return sendHtml(reply, `sledge-${jobId}.html`, renderJobReport(store, jobId));
    },
  );
};
