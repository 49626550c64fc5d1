import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { JobEngine } from '../../engine/engine.js';
import { jobsView } from './jobs-viewer.js';
import { buildschema, checkschema, datagenrun, deleteschema, librarycheck, tcstart, tcstatus, tcstop, vucreate, vudestroy, vurun, type RunCtx } from './lifecycle.js';
import { print, PRINT_OPTIONS } from './prints.js';
import { BodyError, failure, parsePairs, sendJson, type Outcome, type Pairs } from './reply.js';
import { clearscript, customscript, dbset, dgset, diset, echo, loadscript, tcset, vuset } from './settings.js';
import { HdbSession } from './state.js';

export { wantsJobsViewer } from './jobs-viewer.js';

export interface HammerdbOptions {
  engine: JobEngine;
  /** When set, requests need `Authorization: Bearer <token>` or `token=<token>` in the query, like /api/v1. */
  token?: string;
}

type Handler = (ctx: RunCtx, pairs: Pairs) => Outcome | Promise<Outcome>;

/** Verbs with a JSON body (HammerDB's POST pages). */
const BODY_VERBS: Record<string, Handler> = { dbset, diset, vuset, tcset, dgset, customscript, echo };

/** Verbs without a body; HammerDB answers them on any method. */
const PLAIN_VERBS: Record<string, Handler> = {
  loadscript,
  clearscript,
  vucreate,
  vurun,
  vudestroy: (ctx) => vudestroy(ctx),
  buildschema,
  checkschema,
  deleteschema,
  datagenrun,
  tcstart,
  tcstatus,
  tcstop,
};

const HELP = {
  'HammerDB-compatible API (legacy v3.2-v4.7 command web service)': {
    'GET /print?option': `option: ${PRINT_OPTIONS.join(' ')} (also GET /<option>)`,
    'POST /dbset': '{"db":"ora|mssqls|db2|mysql|pg|maria|sqlite"} or {"bm":"TPC-C|TPROC-C"}',
    'POST /diset': '{"dict":"connection|tpcc|tpch","key":"<key>","value":"<value>"}',
    'POST /vuset': '{"vu|delay|repeat|iterations|showoutput|unique|nobuff|timestamps":"<value>"}',
    'POST /tcset': '{"refreshrate":"<1-59>"}',
    'POST /dgset': '{"vu|warehouse|scale_fact|directory":"<value>"}',
    'GET or POST': 'loadscript clearscript vucreate vurun vudestroy buildschema checkschema deleteschema datagenrun tcstart tcstatus tcstop librarycheck',
    'GET /jobs': 'jobs?jobid=ID[&status|&result|&timing[&vu=N]|&tcount|&db|&bm|&dict|&timestamp|&vu=N|&delete]',
  },
};

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The query string without the API token. */
function queryOf(req: FastifyRequest): string {
  const i = req.url.indexOf('?');
  if (i < 0) return '';
  return req.url
    .slice(i + 1)
    .split('&')
    .filter((p) => !p.startsWith('token='))
    .join('&');
}

/**
 * HammerDB's web-service command API at the root prefix: the settings verbs,
 * print pages, the work verbs (each a Sledge job via engine.submit) and the
 * jobs viewer, over one global session like hammerdbws keeps.
 */
export const hammerdbRoutes: FastifyPluginAsync<HammerdbOptions> = async (app: FastifyInstance, { engine, token }) => {
  const ctx: RunCtx = { s: new HdbSession(), store: engine.store, engine };

  // Bodies are HammerDB's: JSON (or brace-less JSON) under any content type, parsed by the verb.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  if (token) {
    app.addHook('onRequest', async (req, reply) => {
      const header = req.headers.authorization;
      const q = req.url.includes('?') ? new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1)).get('token') : null;
      const given = header?.startsWith('Bearer ') ? header.slice(7) : q;
      if (!given || !same(given, token)) return sendJson(reply, failure('this server needs an API token: send "Authorization: Bearer <token>"'), 401);
    });
  }

  const schema = (summary: string) => ({ tags: ['hammerdb'], summary });
  const answer = async (reply: FastifyReply, run: () => Outcome | Promise<Outcome>) => {
    try {
      return sendJson(reply, await run());
    } catch (e) {
      if (e instanceof BodyError) return sendJson(reply, failure(e.message));
      throw e;
    }
  };

  for (const [verb, handler] of Object.entries(BODY_VERBS)) {
    app.route({ method: ['GET', 'POST'], url: `/${verb}`, schema: schema(`HammerDB ${verb}`), handler: (req, reply) => answer(reply, () => handler(ctx, parsePairs(req.body))) });
  }
  for (const [verb, handler] of Object.entries(PLAIN_VERBS)) {
    app.route({ method: ['GET', 'POST'], url: `/${verb}`, schema: schema(`HammerDB ${verb}`), handler: (_req, reply) => answer(reply, () => handler(ctx, [])) });
  }
  for (const option of PRINT_OPTIONS) {
    app.route({ method: ['GET', 'POST'], url: `/${option}`, schema: schema(`HammerDB print ${option}`), handler: (_req, reply) => answer(reply, () => print(ctx, option)) });
  }
  app.route({ method: ['GET', 'POST'], url: '/print', schema: schema('HammerDB print?option'), handler: (req, reply) => answer(reply, () => print(ctx, queryOf(req))) });
  app.route({ method: ['GET', 'POST'], url: '/librarycheck', schema: schema('HammerDB librarycheck'), handler: (_req, reply) => answer(reply, librarycheck) });
  app.route({ method: ['GET', 'POST'], url: '/help', schema: schema('HammerDB API usage'), handler: (_req, reply) => answer(reply, () => HELP) });
  app.get('/jobs', { schema: schema('HammerDB jobs viewer: jobs?jobid=ID[&status|&result|&timing|&tcount|&db|&bm|&dict|&delete]') }, (req, reply) =>
    answer(reply, () => jobsView(engine.store, queryOf(req))),
  );
};
