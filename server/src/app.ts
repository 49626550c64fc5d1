import os from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { JobStore } from '@sledge/jobstore';
import { JobEngine } from './engine/engine.js';
import { AgentHub } from './runner/samplers/agents.js';
import { frameworkErrors, registerErrorHandling } from './plugins/errors.js';
import { registerJsonBody } from './plugins/json-body.js';
import { registerAuth } from './plugins/auth.js';
import { loggerOptions, type LogSink } from './plugins/log-redact.js';
import { registerRequestLog } from './plugins/log-format.js';
import { jsonBodiesOnly, registerOriginGuard } from './plugins/origin.js';
import { capabilityRoutes } from './routes/capabilities.js';
import { configRoutes } from './routes/configs.js';
import { exportRoutes } from './routes/exports.js';
import { jobRoutes } from './routes/jobs.js';
import { profileRoutes } from './routes/profiles.js';
import { shareRoutes } from './routes/shares.js';
import { wsRoutes } from './routes/ws.js';
import { metricRoutes } from './routes/metrics.js';
import { planRoutes } from './routes/plans.js';
import { changeRoutes } from './routes/changes.js';
import { poolRoutes } from './routes/pools.js';
import { hammerdbRoutes } from './routes/hammerdb/index.js';
import { localAgentStarter } from './plugins/local-agent.js';
import { prometheusRoutes } from './routes/prometheus.js';
import { VERSION } from './version.js';
import { replicaRoutes } from './routes/replicas.js';
import { scriptRoutes } from './routes/scripts.js';
import type { ReplicaHub } from './replicas/hub.js';
import type { NatsSettings } from './replicas/nats-conn.js';
import type { VuLoopPreference } from './shared/messages.js';

export interface AppOptions {
  /** Directory for the job store and SQLite targets (default ./data). */
  dataDir: string;
  /** SLEDGE_FILES_ROOT: job files (SQLite targets, datagen) must lie under it; default: relative paths under dataDir. */
  filesRoot?: string;
  /** SLEDGE_SECRET_KEY (base64, 32 bytes) encrypting saved secrets; default: <dataDir>/secret.key. */
  secretKey?: string;
  /** Fastify logger setting (request URLs are logged with tokens redacted); stream: where lines go (default stdout). */
  logger?: boolean | { level: string; stream?: LogSink };
  /** Built UI directory to serve at /, or null to serve none (default: ui/dist when it exists). */
  uiDir?: string | null;
  /**
   * Serve the OpenAPI document and its UI at /docs (default true). `sledge --local` passes false:
   * its in-process server answers only the CLI, which never asks for them, and the docs' plugins
   * cost ~40-60 ms of CPU to load and register (docs/benchmarks.md, "Process start").
   */
  docs?: boolean;
  /** When set, every route not declared public requires `Authorization: Bearer <token>` (plugins/auth.ts). */
  token?: string;
  /** Host names the server answers to besides IP literals, localhost and the machine's name (DNS rebinding guard, plugins/origin.ts). */
  allowedHosts?: string[];
  /** Row generator for builds. */
  generator?: 'auto' | 'native' | 'typescript';
  /**
   * VU loop for runs: 'auto' (default) runs VUs in the driver's native loop
   * (PostgreSQL: worker-native's libpq loop; MariaDB/MySQL: its MariaDB C
   * connector loop) when it is built, else in
   * TypeScript; 'native' requires it; 'typescript' never uses it.
   */
  vuLoop?: VuLoopPreference;
  /** Test hook: load the native VU loop (whichever engine's the run's driver offers) from this file instead of worker-native's build. */
  pgVuAddonPath?: string;
  cpus?: number;
  /**
   * Scale-out: join replicas over NATS (SLEDGE_NATS_*); lossMs: a replica silent this long is lost (default 5000);
   * pruneMs: a lost replica leaves the list this long after (SLEDGE_REPLICA_PRUNE_MS, default 10 minutes);
   * maxReplicas: the list's bound (SLEDGE_REPLICA_MAX, default 1000).
   */
  nats?: NatsSettings & { lossMs?: number; pruneMs?: number; maxReplicas?: number };
}

export interface SledgeApp {
  app: FastifyInstance;
  engine: JobEngine;
  store: JobStore;
  /** Start this host's CPU agent beside the server (once; false when it is running or cannot start). */
  startAgent: () => boolean;
}

/**
 * Build the Fastify app without listening (tests use inject(); main.ts listens).
 * Registration order is explicit: error handling, docs, websocket, Host/Origin guard, routes, UI, token guard.
 */
export async function buildApp(opts: AppOptions): Promise<SledgeApp> {
  const app = Fastify({
    logger: loggerOptions(opts.logger),
    // Requests are logged at debug by registerRequestLog (one line each), not at info twice.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    frameworkErrors,
  });
  registerRequestLog(app);
  // Takes the data directory's one-writer lock before any recovery step; files 0600; saved secrets encrypted.
  const store = JobStore.open(join(opts.dataDir, 'sledge.db'), {
    ...(opts.secretKey !== undefined ? { secretKey: opts.secretKey } : {}),
    onFlushError: (e) => app.log.error(`job store write failed (rows kept, retrying every second): ${e.message}`),
  });
  const agents = new AgentHub();
  const replicas = await openReplicas(opts.nats, agents, app.log).catch((e: unknown) => {
    store.close();
    throw e;
  });
  const engine = new JobEngine(store, {
    dataDir: opts.dataDir,
    ...(opts.filesRoot !== undefined ? { filesRoot: opts.filesRoot } : {}),
    clientVersion: `sledge ${VERSION} (node ${process.version})`,
    cpus: opts.cpus ?? os.availableParallelism(),
    generator: opts.generator ?? 'auto',
    vuLoop: opts.vuLoop ?? 'auto',
    ...(opts.pgVuAddonPath !== undefined ? { pgVuAddonPath: opts.pgVuAddonPath } : {}),
    log: (m) => app.log.info(m),
    agents,
    ...(replicas ? { replicas } : {}),
  });
  if (store.interruptedOnOpen.length) app.log.warn(`marked ${store.interruptedOnOpen.length} job(s) interrupted after a restart: ${store.interruptedOnOpen.join(', ')}`);

  registerErrorHandling(app);
  registerJsonBody(app);
  // Loaded only when served (@fastify/swagger, @fastify/swagger-ui and yaml): `sledge --local` passes docs: false.
  if (opts.docs !== false) await (await import('./plugins/docs.js')).registerDocs(app);
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  registerOriginGuard(app, { allowedHosts: opts.allowedHosts ?? [] });
  await app.register(
    async (api) => {
      api.addHook('onRequest', jsonBodiesOnly);
      await api.register(jobRoutes, { engine });
      await api.register(exportRoutes, { engine });
      await api.register(capabilityRoutes, { engine, version: VERSION, vuLoop: opts.vuLoop ?? 'auto' });
      await api.register(configRoutes, { engine });
      await api.register(profileRoutes, { engine });
      await api.register(shareRoutes, { engine });
      await api.register(wsRoutes, { engine });
      await api.register(metricRoutes, { engine });
      await api.register(planRoutes, { engine });
      await api.register(changeRoutes, { engine });
      await api.register(poolRoutes, { engine });
      await api.register(replicaRoutes, { engine });
      await api.register(scriptRoutes, { engine });
    },
    { prefix: '/api/v1' },
  );
  await app.register(prometheusRoutes, { engine });
  // HammerDB's legacy web-service commands and jobs viewer at the root (/dbset, /diset, /vurun, /jobs?jobid=...).
  // metstart with no agent for this host starts one, as HammerDB's CLI starts its local agent (an in-process server has none).
  const startAgent = localAgentStarter(app, opts.token);
  await app.register(hammerdbRoutes, { engine, startAgent });
  const uiDir = opts.uiDir === undefined ? defaultUiDir() : opts.uiDir;
  // Loaded only with a UI to serve (@fastify/static and glob): `sledge --local` and most tests serve none.
  if (uiDir) await (await import('./plugins/ui.js')).registerUi(app, uiDir);
  registerAuth(app, opts.token); // after the UI: its GET /jobs page for browsers comes first

  app.addHook('onClose', async () => {
    await engine.close();
    await replicas?.close();
    store.close();
  });
  return { app, engine, store, startAgent };
}

/** Scale-out: the replica hub on NATS when the server has SLEDGE_NATS_URL (AppOptions.nats). */
async function openReplicas(nats: AppOptions['nats'], agents: AgentHub, log: FastifyBaseLogger): Promise<ReplicaHub | undefined> {
  if (!nats) return undefined;
  const { lossMs, pruneMs, maxReplicas } = nats;
  // Loaded only with NATS configured: its JetStream client is ~70 module files every other server start skips.
  const { ReplicaHub } = await import('./replicas/hub.js');
  return ReplicaHub.open(nats, {
    log: (m) => log.info(m),
    warn: (m) => log.warn(m),
    agents,
    ...(lossMs !== undefined ? { lossMs } : {}),
    ...(pruneMs !== undefined ? { pruneMs } : {}),
    ...(maxReplicas !== undefined ? { maxReplicas } : {}),
  });
}

function defaultUiDir(): string | null {
  const d = new URL('../../ui/dist', import.meta.url).pathname;
  return existsSync(join(d, 'index.html')) ? d : null;
}
