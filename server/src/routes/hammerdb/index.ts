import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { JobEngine } from '../../engine/engine.js';
import { crossSiteMessage, isCrossSite, stateChangingGetAllowed, stateChangingGetMessage } from '../../plugins/origin.js';
import '../../plugins/route-config.js';
import { jobsArgs, jobsCommand } from './jobs-cli.js';
import { REPORT_CSP } from '../../report/index.js';
import { jobsView, queryParams } from './jobs-viewer.js';
import { buildschema, checkschema, datagenrun, deleteschema, librarycheck, tcstart, tcstatus, tcstop, vucreate, vudestroy, vurun, type RunCtx } from './lifecycle.js';
import { print, PRINT_OPTIONS } from './prints.js';
import { BodyError, failure, parsePairs, sendJson, type Outcome, type Pairs } from './reply.js';
import { customscript } from './customscript.js';
import { giset } from './generic.js';
import { metset, metstart, metstatus, metstop } from './metrics.js';
import { loadSession, saveSession } from './persist.js';
import { switchmode } from './modes.js';
import { custommonitor, savescript } from './scriptfile.js';
import { clearscript, dbset, dgset, diset, echo, loadscript, tcset, vuset } from './settings.js';
import { HdbSession } from './state.js';
import { steprun } from './steprun.js';
import { runtimer, waittocomplete } from './waits.js';

export { wantsJobsViewer } from './jobs-viewer.js';

export interface HammerdbOptions {
  engine: JobEngine;
  /** Start a CPU agent for this host (metstart when none is connected); false when it cannot. */
  startAgent?: () => boolean;
}

type Handler = (ctx: RunCtx, pairs: Pairs, aborted: () => boolean) => Outcome | Promise<Outcome>;

/** Verbs with a JSON body (HammerDB's POST pages); all but echo change the session (runtimer waits). */
const BODY_VERBS: Record<string, Handler> = { dbset, diset, giset, vuset, tcset, dgset, metset, customscript, custommonitor, savescript, switchmode, echo, steprun, runtimer };

/**
 * Verbs without a body that change the session, the database or the job store:
 * POST, and GET as HammerDB 4.3-4.7's client and manual send them, when no page
 * of another site can have sent the GET (stateChangingGetAllowed).
 */
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
  metstart: (ctx) => metstart(ctx),
  metstop,
  waittocomplete: (ctx, _pairs, aborted) => waittocomplete(ctx, aborted),
};

const HELP = {
  'HammerDB-compatible API (legacy v3.2-v4.7 command web service)': {
    'GET /print?option': `option: ${PRINT_OPTIONS.join(' ')} (also GET /<option>)`,
    'POST /dbset': '{"db":"ora|mssqls|db2|mysql|pg|maria|sqlite"} or {"bm":"TPC-C|TPROC-C"}',
    'POST /diset': '{"dict":"connection|tpcc|tpch","key":"<key>","value":"<value>"}: a key Sledge has no field for is accepted only at its HammerDB default (or a value that changes nothing) and refused otherwise, saying why',
    'POST /giset': '{"dict":"<generic section>","key":"<key>","value":"<value>"} (GET /print?generic lists them)',
    'POST /vuset': '{"vu|delay|repeat|iterations|showoutput|unique|nobuff|timestamps":"<value>"}',
    'POST /tcset': '{"refreshrate":"<1-59>"}',
    'POST /dgset': '{"vu|warehouse|scale_fact|directory":"<value>"}',
    'POST /customscript': '{"script":"<text>"}: a HammerDB-generated TPROC-C/TPROC-H driver script; its #EDITABLE OPTIONS block sets the dict',
    'POST /savescript': '{"file":"<name>"}: writes <name>.tcl into <data dir>/scripts/ (owner-only)',
    'POST /custommonitor': '{"type":"test|timed"}',
    'POST /metset': '{"agent_hostname|agent_id":"<value>"}',
    'POST /switchmode': '{"mode":"local"} (primary and replica are refused)',
    'POST /runtimer': '{"seconds":"N"}: answers when the virtual users complete or N seconds pass',
    'POST or GET': 'loadscript clearscript vucreate vurun vudestroy buildschema checkschema deleteschema datagenrun tcstart tcstop metstart metstop waittocomplete (they change state: a GET is refused from a browser page of another site, or without Sec-Fetch-Site same-origin|none, an Origin of this server or an Authorization header when a browser sent it)',
    'GET or POST': 'tcstatus metstatus librarycheck',
    'POST /steprun': '{"replica1.start_after_prev":"0","replica1.duration":"1","replica1.virtual_users":"2", ...}: steps.xml as flat keys; the replicas run as steps of one job (their VUs add to vuset vu)',
    'POST /jobscmd': '{"args":["result"]|["<jobid>","timing"]|["diff","1","2","true"]|...}: HammerDB CLI jobs verb -> {"output":[lines],"value":"return value"}',
    'GET /jobs': 'jobs?jobid=ID[&status|&result|&timing[&vu=N]|&tcount|&db|&bm|&dict|&timestamp|&vu=N|&delete]; v6: &summaryjson|&resultdata|&timingdata|&tcountdata|&metricsdata|&index|&DELETE|&<section>&raw=1, jobs?profileid=N&profiledata, jobs?cmd=profilediff&base_pid=A&new_pid=B[&weighted=1]',
  },
};

/** Whether the client of a long request (runtimer, waittocomplete) has gone away. */
const gone = (req: FastifyRequest) => () => req.raw.socket?.destroyed === true;

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
 * ?token=), and against other sites (plugins/origin.ts): every verb with a
 * body is POST-only, and a browser on another origin cannot POST
 * (HammerDB's Tcl client sends no Origin and is unaffected); HammerDB's
 * state-changing GETs (the plain verbs as 4.3-4.7's client sends them,
 * jobs?jobid=ID&delete) need evidence that no page of another site sent them
 * (stateChangingGetAllowed), which the Tcl client's own User-Agent is.
 */
export const hammerdbRoutes: FastifyPluginAsync<HammerdbOptions> = async (app: FastifyInstance, { engine, startAgent }) => {
  // The session saved last (HammerDB 4.5+ keeps its settings across restarts), saved again after every verb that may change it.
  const ctx: RunCtx = { s: loadSession(engine.store, new HdbSession(engine.filesRoot), (m) => app.log.warn(m)), store: engine.store, engine, ...(startAgent ? { startAgent } : {}) };
  const changing = (run: () => Outcome | Promise<Outcome>) => async () => {
    try {
      return await run();
    } finally {
      try {
        saveSession(engine.store, ctx.s);
      } catch (e) {
        app.log.error(`HammerDB session not saved: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  };
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

  // A GET of a verb that needs a body (a link, an <img> on any web page) changes nothing.
  const postOnly = (verb: string) =>
    app.get(`/${verb}`, { schema: { hide: true } }, (_req, reply) => sendJson(reply.header('allow', 'POST'), failure(`${verb} changes state: send it with POST`), 405));
  for (const [verb, handler] of Object.entries(BODY_VERBS)) {
    app.route({ method: verb === 'echo' ? ['GET', 'POST'] : 'POST', url: `/${verb}`, schema: schema(`HammerDB ${verb}`), handler: (req, reply) => answer(reply, changing(() => handler(ctx, parsePairs(req.body), gone(req)))) });
    if (verb !== 'echo') postOnly(verb);
  }
  for (const [verb, handler] of Object.entries(PLAIN_VERBS)) {
    app.route({
      method: ['GET', 'POST'],
      url: `/${verb}`,
      schema: schema(`HammerDB ${verb}`),
      handler: (req, reply) => {
        // A GET (HammerDB 4.3-4.7's client) runs only when no page of another site can have sent it (a link, an <img>).
        if (req.method === 'GET' && !stateChangingGetAllowed(req)) {
          const message = isCrossSite(req) ? crossSiteMessage(req) : stateChangingGetMessage(verb, 'send it with POST, or from a tool');
          return sendJson(reply, failure(message), 403);
        }
        return answer(reply, changing(() => handler(ctx, [], gone(req))));
      },
    });
  }
  app.route({ method: ['GET', 'POST'], url: '/metstatus', schema: schema('HammerDB metstatus'), handler: (_req, reply) => answer(reply, () => metstatus(ctx)) });
  app.route({ method: ['GET', 'POST'], url: '/tcstatus', schema: schema('HammerDB tcstatus'), handler: (_req, reply) => answer(reply, () => tcstatus(ctx)) });
  for (const option of PRINT_OPTIONS) {
    app.route({ method: ['GET', 'POST'], url: `/${option}`, schema: schema(`HammerDB print ${option}`), handler: (_req, reply) => answer(reply, () => print(ctx, option)) });
  }
  app.route({ method: ['GET', 'POST'], url: '/print', schema: schema('HammerDB print?option'), handler: (req, reply) => answer(reply, () => print(ctx, queryOf(req))) });
  app.route({ method: ['GET', 'POST'], url: '/librarycheck', schema: schema('HammerDB librarycheck'), handler: (_req, reply) => answer(reply, librarycheck) });
  app.route({ method: ['GET', 'POST'], url: '/help', schema: schema('HammerDB API usage'), handler: (_req, reply) => answer(reply, () => HELP) });
  // HammerDB CLI's jobs verb for the script runner: {"args":[...]} -> {"output":[...],"value":"..."}.
  app.post('/jobscmd', { schema: schema('HammerDB CLI jobs verb: {"args":["diff","1","2","true"]} -> {"output":[lines printed],"value":"return value"}') }, (req, reply) =>
    answer(reply, changing(() => jobsCommand({ store: engine.store, settings: ctx.s.jobs, dataDir: engine.dataDir }, jobsArgs(req.body)))),
  );
  app.get('/jobs', { schema: schema('HammerDB jobs viewer: jobs?jobid=ID[&status|&result|&timing|&tcount|&db|&bm|&dict|&delete]') }, (req, reply) => {
    const query = queryOf(req);
    // HammerDB deletes with a GET: honoured only when no page of another site can have sent it (plugins/origin.ts).
    if (queryParams(query).some(([k]) => k.toLowerCase() === 'delete') && !stateChangingGetAllowed(req)) {
      const message = isCrossSite(req) ? crossSiteMessage(req) : stateChangingGetMessage('jobs?jobid=ID&delete', 'delete with DELETE /api/v1/jobs/ID, the jobs command (POST /jobscmd), or from a tool');
      return sendJson(reply, failure(message), 403);
    }
    const view = jobsView(engine.store, query, /\btext\/html\b/i.test(req.headers.accept ?? ''));
    if (view.kind === 'redirect') return reply.redirect(view.url, 302);
    if (view.kind === 'html') return reply.type('text/html; charset=utf-8').header('content-security-policy', REPORT_CSP).send(view.body);
    if (view.kind === 'raw') return reply.type('application/json; charset=utf-8').send(JSON.stringify(view.body));
    return answer(reply, () => view.body);
  });
};
