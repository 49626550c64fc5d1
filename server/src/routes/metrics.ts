import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, Value, AgentFrame, AshReport, ErrorBody, SledgeError, type CpuSample } from '@sledge/protocol';
import { ashReport } from '../engine/ash-report.js';
import { TargetBody, checkTargetBody, type RouteDeps } from './route-deps.js';
import '../plugins/route-config.js';

/**
 * vCPUs of the database host: the agent on the target's host (the local
 * agent for a local target), else the only agent there is.
 */
function dbHostCpus(system: Record<string, Record<string, unknown>>, host: string | undefined): number | undefined {
  const entries = Object.entries(system);
  const local = !host || host === '127.0.0.1' || host === 'localhost' || host === '::1';
  const pick =
    entries.find(([label, info]) => (local ? label.endsWith('(local)') : label === host || info['hostname'] === host)) ?? (entries.length === 1 ? entries[0] : undefined);
  const n = pick?.[1]['cpuCount'];
  return typeof n === 'number' ? n : undefined;
}

const Range = Type.Object({ from: Type.Optional(Type.Number()), to: Type.Optional(Type.Number()) });

/** ASH and CPU data of a job, connected agents, the agent socket, and on-demand ASH for a target. */
export const metricRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  await app.register(jobMetricRoutes, deps);
  await app.register(agentRoutes, deps);
};

/** A job's ASH report and CPU samples. */
const jobMetricRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  const job = (id: string) => {
    const j = store.getJob(id);
    if (!j) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
    return j;
  };

  app.get(
    '/jobs/:id/ash',
    {
      schema: {
        tags: ['metrics'],
        summary: 'Active session history: average active sessions by wait class over time, and top events, SQL and sessions for the range (unix ms)',
        params: Type.Object({ id: Type.String() }),
        querystring: Range,
        response: { 200: AshReport, 404: ErrorBody },
      },
    },
    async (req) => {
      const j = job(req.params.id);
      const q = req.query;
      const vcpus = dbHostCpus(store.getSystem(j.id), (j.config as { target?: { host?: string } }).target?.host);
      return ashReport(store, j.id, q, vcpus);
    },
  );

  app.get(
    '/jobs/:id/cpu',
    {
      schema: {
        tags: ['metrics'],
        summary: 'CPU agent samples (per core usr/sys/iowait/irq/soft/steal/idle, IOPS, MB/s) and system info per agent',
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ from: Type.Optional(Type.Number()), to: Type.Optional(Type.Number()), source: Type.Optional(Type.String()) }),
        response: { 200: Type.Unknown(), 404: ErrorBody },
      },
    },
    async (req) => {
      const j = job(req.params.id);
      const q = req.query;
      const rows = store.getMetrics(j.id, 'cpu', q);
      const bySource: Record<string, CpuSample[]> = {};
      for (const r of rows) (bySource[r.source ?? 'agent'] ??= []).push(r.data as CpuSample);
      return { sources: bySource, system: store.getSystem(j.id) };
    },
  );

};

/** Connected agents, the agent socket, and on-demand ASH for a target. */
const agentRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  app.get('/agents', { schema: { tags: ['metrics'], summary: 'Connected CPU agents with their latest sample' } }, async () => engine.agents.list());

  app.post(
    '/targets/ash',
    {
      validatorCompiler: checkTargetBody,
      schema: { tags: ['metrics'], summary: 'One active-session-history sample of a target, without a job', body: TargetBody, response: { 200: Type.Unknown(), 400: ErrorBody, 404: ErrorBody, 422: ErrorBody, 424: ErrorBody } },
    },
    async (req) => {
      return engine.sampleAsh(req.body.target, req.body.configId);
    },
  );

  app.get('/agent', { websocket: true, schema: { hide: true }, config: { tokenInQuery: true } }, (socket) => {
    let id: number | null = null;
    socket.on('message', (raw) => {
      let msg: unknown;
      try {
        msg = JSON.parse(String(raw));
      } catch {
        return;
      }
      if (!Value.Check(AgentFrame, msg)) {
        socket.send(JSON.stringify({ t: 'error', error: { code: 'SLEDGE_E_VALIDATION', message: 'expected {t:"hello",label,system} then {t:"cpu",sample}' } }));
        return;
      }
      const f = msg as AgentFrame;
      if (f.t === 'hello') {
        if (id !== null) engine.agents.disconnect(id);
        id = engine.agents.connect(f.label, f.system);
        app.log.info(`CPU agent "${f.label}" connected (${f.system.hostname}, ${f.system.cpuCount} CPUs)`);
      } else if (id !== null) engine.agents.sample(id, f.sample);
    });
    socket.on('close', () => {
      if (id !== null) engine.agents.disconnect(id);
    });
  });
};
