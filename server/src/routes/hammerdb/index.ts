import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { JobEngine } from '../../engine/engine.js';
import { crossSiteMessage, isCrossSite } from '../../plugins/origin.js';
import '../../plugins/route-config.js';
import { jobsArgs, jobsCommand } from './jobs-cli.js';
import { jobsView, queryParams } from './jobs-viewer.js';
import { buildschema, checkschema, datagenrun, deleteschema, librarycheck, tcstart, tcstatus, tcstop, vucreate, vudestroy, vurun, type RunCtx } from './lifecycle.js';
import { print, PRINT_OPTIONS } from './prints.js';
import { BodyError, failure, parsePairs, sendJson, type Outcome, type Pairs } from './reply.js';
import { clearscript, customscript, dbset, dgset, diset, echo, loadscript, tcset, vuset } from './settings.js';
import { HdbSession } from './state.js';
import { steprun } from './steprun.js';

export { wantsJobsViewer } from './jobs-viewer.js';

export interface HammerdbOptions {
  engine: JobEngine;
}

type Handler = (ctx: RunCtx, pairs: Pairs) => Outcome | Promise<Outcome>;

/** Verbs with a JSON body (HammerDB's POST pages); all but echo change the session. */
const BODY_VERBS: Record<string, Handler> = { dbset, diset, vuset, tcset, dgset, customscript, echo, steprun };

/** Verbs without a body that change the session, the database or the job store: POST only, as HammerDB's own client sends them. */
const PLAIN_VERBS: Record<string, Handler> = {
  loadscript,
  clearscript,
  vucreate,
  vurun: (ctx) => vurun(ctx),
  vudestroy: (ctx) => vudestroy(ctx),
  buildschema,
  checkschema,
  deleteschema,
  datagenrun,
  tcstart,
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
    POST: 'loadscript clearscript vucreate vurun vudestroy buildschema checkschema deleteschema datagenrun tcstart tcstop (they change state: GET is refused)',
    'GET or POST': 'tcstatus librarycheck',
    'POST /steprun': '{"replica1.start_after_prev":"0","replica1.duration":"1","replica1.virtual_users":"2", ...}: steps.xml as flat keys; the replicas run as steps of one job (their VUs add to vuset vu)',
    'POST /jobscmd': '{"args":["result"]|["<jobid>","timing"]|["diff","1","2","true"]|...}: HammerDB CLI jobs verb -> {"output":[lines],"value":"return value"}',
    'GET /jobs': 'jobs?jobid=ID[&status|&result|&timing[&vu=N]|&tcount|&db|&bm|&dict|&timestamp|&vu=N|&delete]; v6: &summaryjson|&resultdata|&timingdata|&tcountdata|&metricsdata|&index|&DELETE|&<section>&raw=1, jobs?profileid=N&profiledata, jobs?cmd=profilediff&base_pid=A&new_pid=B[&weighted=1]',
  },
};

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
 *
 * Guards: the API token (plugins/auth.ts; HammerDB scripts may pass it as
 * ?token=), and against other sites (plugins/origin.ts): every verb that
 * changes state is POST-only, and a browser on another origin cannot POST
 * (HammerDB's Tcl client sends no Origin and is unaffected).
 */
export const hammerdbRoutes: FastifyPluginAsync<HammerdbOptions> = async (app: FastifyInstance, { engine }) => {
  const ctx: RunCtx = { s: new HdbSession(), store: engine.store, engine };
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, hammerdb: true, tokenInQuery: true };
  });

  // Bodies are HammerDB's: JSON (or brace-less JSON) under any content type, parsed by the verb.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const schema = (summary: string) => ({ tags: ['hammerdb'], summary });
  const answer = async (reply: FastifyReply, run: () => Outcome | Promise<Outcome>) => {
    try {
      return sendJson(reply, await run());
    } catch (e) {
      if (e instanceof BodyError) return sendJson(reply, failure(e.message));
      throw e;
    }
  };

  // A GET of a state-changing verb (a link, an <img> on any web page) changes nothing.
  const postOnly = (verb: string) =>
    app.get(`/${verb}`, { schema: { hide: true } }, (_req, reply) => sendJson(reply.header('allow', 'POST'), failure(`${verb} changes state: send it with POST`), 405));
  for (const [verb, handler] of Object.entries(BODY_VERBS)) {
    app.route({ method: verb === 'echo' ? ['GET', 'POST'] : 'POST', url: `/${verb}`, schema: schema(`HammerDB ${verb}`), handler: (req, reply) => answer(reply, () => handler(ctx, parsePairs(req.body))) });
    if (verb !== 'echo') postOnly(verb);
  }
  for (const [verb, handler] of Object.entries(PLAIN_VERBS)) {
    app.route({ method: 'POST', url: `/${verb}`, schema: schema(`HammerDB ${verb}`), handler: (_req, reply) => answer(reply, () => handler(ctx, [])) });
    postOnly(verb);
  }
  app.route({ method: ['GET', 'POST'], url: '/tcstatus', schema: schema('HammerDB tcstatus'), handler: (_req, reply) => answer(reply, () => tcstatus(ctx)) });
  for (const option of PRINT_OPTIONS) {
    app.route({ method: ['GET', 'POST'], url: `/${option}`, schema: schema(`HammerDB print ${option}`), handler: (_req, reply) => answer(reply, () => print(ctx, option)) });
  }
  app.route({ method: ['GET', 'POST'], url: '/print', schema: schema('HammerDB print?option'), handler: (req, reply) => answer(reply, () => print(ctx, queryOf(req))) });
  app.route({ method: ['GET', 'POST'], url: '/librarycheck', schema: schema('HammerDB librarycheck'), handler: (_req, reply) => answer(reply, librarycheck) });
  app.route({ method: ['GET', 'POST'], url: '/help', schema: schema('HammerDB API usage'), handler: (_req, reply) => answer(reply, () => HELP) });
  // HammerDB CLI's jobs verb for the script runner: {"args":[...]} -> {"output":[...],"value":"..."}.
  app.post('/jobscmd', { schema: schema('HammerDB CLI jobs verb: {"args":["diff","1","2","true"]} -> {"output":[lines printed],"value":"return value"}') }, (req, reply) =>
    answer(reply, () => jobsCommand({ store: engine.store, settings: ctx.s.jobs }, jobsArgs(req.body))),
  );
  app.get('/jobs', { schema: schema('HammerDB jobs viewer: jobs?jobid=ID[&status|&result|&timing|&tcount|&db|&bm|&dict|&delete]') }, (req, reply) => {
    const query = queryOf(req);
    // HammerDB deletes with a GET: refuse it when a browser sends it from another site.
    if (queryParams(query).some(([k]) => k.toLowerCase() === 'delete') && isCrossSite(req)) return sendJson(reply, failure(crossSiteMessage(req)), 403);
    const view = jobsView(engine.store, query, /\btext\/html\b/i.test(req.headers.accept ?? ''));
    if (view.kind === 'redirect') return reply.redirect(view.url, 302);
    if (view.kind === 'raw') return reply.type('application/json; charset=utf-8').send(JSON.stringify(view.body));
    return answer(reply, () => view.body);
  });
};
