import os from 'node:os';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, Value, Capabilities, ENGINES, ENGINE_DISPLAY, ErrorBody, TargetTestResult, type EngineCapability } from '@sledge/protocol';
import type { Driver } from '@sledge/core';
import { generatorStatus } from '../worker/generator.js';
import { loadDriver } from '../engine/registry.js';
import { TARGET_SCHEMAS } from '@sledge/protocol';
import { TargetBody, checkTargetBody, type RouteDeps } from './route-deps.js';
import { isAnonymous } from '../plugins/auth.js';
import type { VuLoopPreference } from '../shared/messages.js';
import { vuLoopCapability } from '../workloads/tprocc/vu-loop-capability.js';

/**
 * Workloads a driver offers in part, with what is left out and why: TPROC-C
 * hooks without transactions (TproccHooks.noTransactions, DuckDB) build,
 * check and delete the schema, and CH-benCHmark there runs its analytic
 * streams alone (tprocc.vus 0).
 */
function limitedWorkloads(d: Driver): { limited?: Record<string, string> } {
  const why = d.workloads.tprocc?.noTransactions;
  if (!why) return {};
  const limited: Record<string, string> = { tprocc: `Schema only (build, check, delete; no runs). ${why}` };
  if (d.openQuerySession) limited['chbench'] = `Analytic streams only: runs take tprocc.vus 0. ${why}`;
  return { limited };
}

/** Like HammerDB's librarycheck: which drivers load here, and why not when they do not; which loop runs each engine's VUs. */
export async function capabilities(version: string, vuLoop: VuLoopPreference = 'auto'): Promise<Capabilities> {
  const engines: EngineCapability[] = await Promise.all(
    ENGINES.map(async (engine): Promise<EngineCapability> => {
      try {
        const d = await loadDriver(engine);
        const p = await d.probe();
        const defaults = Value.Default(TARGET_SCHEMAS[engine], { engine }) as never;
        const loop = p.available ? vuLoopCapability(engine, d, vuLoop) : undefined;
        return {
          engine,
          displayName: ENGINE_DISPLAY[engine],
          available: p.available,
          library: d.library,
          ...(p.libraryVersion ? { libraryVersion: p.libraryVersion } : {}),
          ...(p.reason ? { reason: p.reason } : {}),
          ...(p.install ? { install: p.install } : {}),
          features: d.features(defaults),
          // The workloads this engine's driver declares hooks for, and what each does with its options (TPROC-H: dop).
          // CH-benCHmark declares no hooks: it runs where TPROC-C does and the driver opens query sessions (its preflight's rule).
          workloads: [
            ...Object.entries(d.workloads).filter(([, hooks]) => hooks !== undefined).map(([id]) => id),
            ...(d.workloads.tprocc && d.openQuerySession ? ['chbench'] : []),
            // The script workload declares no hooks either: it runs where the driver opens parameter sessions.
            ...(d.openParamSession ? ['script'] : []),
          ],
          ...(loop ? { vuLoop: loop } : {}),
          ...(d.notOffered && Object.keys(d.notOffered).length > 0 ? { notOffered: { ...d.notOffered } } : {}),
          ...limitedWorkloads(d),
          workloadFeatures: Object.fromEntries(
            Object.entries(d.workloads)
              .map(([id, hooks]) => [id, (hooks as { features?: Record<string, boolean> } | undefined)?.features] as const)
              .filter(([, f]) => f !== undefined),
          ) as Record<string, Record<string, boolean>>,
        };
      } catch (e) {
        return { engine, displayName: ENGINE_DISPLAY[engine], available: false, library: '?', reason: e instanceof Error ? e.message : String(e), workloads: [] };
      }
    }),
  );
  return { version, node: process.version, engines, generator: await generatorStatus(), cpus: os.availableParallelism() };
}

export const capabilityRoutes: FastifyPluginAsyncTypebox<RouteDeps & { version: string; vuLoop?: VuLoopPreference }> = async (app, { engine, version, vuLoop }) => {
  app.get(
    '/capabilities',
    { schema: { tags: ['targets'], summary: 'Which engine drivers load (librarycheck), the VU loop per engine, the row generator in use, CPUs', response: { 200: Capabilities } } },
    async () => capabilities(version, vuLoop),
  );

  app.get('/targets/schema', { schema: { tags: ['targets'], summary: 'JSON Schema of every engine target (the UI generates its forms from it)' } }, async () => TARGET_SCHEMAS);

  app.post(
    '/targets/test',
    {
      validatorCompiler: checkTargetBody,
      schema: {
        tags: ['targets'],
        summary: 'Test a connection: returns the server version and whether the workload\'s schema is there (TPROC-C by default)',
        body: TargetBody,
        response: { 200: TargetTestResult, 400: ErrorBody, 404: ErrorBody, 422: ErrorBody, 424: ErrorBody },
      },
    },
    async (req) => {
      return engine.testTarget(req.body.target, req.body.configId, req.body.workload);
    },
  );

  // Public (load balancers, container health checks): without the API token on a server that has one, liveness only.
  const Health = Type.Object({
    ok: Type.Boolean(),
    active: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'the running job (needs the API token when the server has one)' })),
    queued: Type.Optional(Type.Array(Type.String(), { description: 'queued jobs (needs the API token when the server has one)' })),
  });
  app.get('/health', { schema: { tags: ['server'], summary: 'Liveness, and with the API token the job queue', response: { 200: Health } } }, async (req) =>
    isAnonymous(req) ? { ok: true } : { ok: true, active: engine.activeJobId, queued: engine.queuedJobIds() },
  );
};
