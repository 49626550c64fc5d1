import { dirname, resolve } from 'node:path';
import { newSessionTag, randomSeed, type Driver } from '@sledge/core';
import { reservedPaths, type JobStore } from '@sledge/jobstore';
import {
  REDACTED,
  SledgeError,
  isTerminal,
  parseJobCreate,
  redact,
  secretBindingMismatch,
  fillPoolSecrets,
  assertPoolInheritance,
  secretFields,
  secretValues,
  toSledgeError,
  type Job,
  type JobConfig,
  type TargetTestResult,
  type Target,
  workloadDef,
} from '@sledge/protocol';
import { driverFor } from '../shared/drivers.js';
import type { VuLoopPreference } from '../shared/messages.js';
import { jobBody, workloadRunner } from '../workloads/index.js';
import { assertCreatable, resolveJobPath, type PathPolicy } from './paths.js';
import { JobContext } from './job-context.js';
import { buildSnapshot } from './snapshot.js';
import { StopToken } from './stop.js';
import { AgentHub } from '../runner/samplers/agents.js';
import { JobSamplers } from '../runner/samplers/job-samplers.js';
import { recordEngineSettings } from '../runner/samplers/engine-settings.js';
import { StatementWindow } from '../runner/samplers/statement-window.js';
import { JobStream } from './stream.js';
import { assertBaseline } from './baseline.js';
import { hasJudging, judgeJob, judgingOf } from './judge.js';
import type { ReplicaHub } from '../replicas/hub.js';
import { checkPlacement } from '../replicas/preflight.js';
import { placeOnReplicas } from '../replicas/remote-vus.js';
import { checkMainThreadRun } from '../runner/main-thread.js';

/** Does the job work on its target's database (not only on files)? */
const usesDb = (cfg: JobConfig) => jobBody(cfg.workload, cfg.type).db;
/** A datagen job's options (the workloads that write flat files have them; others never do). */
const datagenOf = (cfg: JobConfig) => ('datagen' in cfg ? cfg.datagen : undefined);

export interface EngineOptions {
  dataDir: string;
  /**
   * SLEDGE_FILES_ROOT: where job files (SQLite targets, datagen directories)
   * may go; every path must lie under it. Unset: relative paths resolve under
   * the data directory and absolute paths are allowed where creatable.
   */
  filesRoot?: string;
  clientVersion: string;
  cpus: number;
  generator: 'auto' | 'native' | 'typescript';
  /** VU loop for runs: 'auto' (native where available), 'native', 'typescript'. */
  vuLoop?: VuLoopPreference;
  /** Test hook: load the native VU loop from this file instead of worker-native's build. */
  pgVuAddonPath?: string;
  /** Log function for the server log (never receives secrets). */
  log: (msg: string) => void;
  agents: AgentHub;
  /** Scale-out: the replicas joined over NATS (SLEDGE_NATS_URL), or none. */
  replicas?: ReplicaHub;
}

interface Queued {
  job: Job;
  cfg: JobConfig;
  explicit: Set<string>;
  stop: StopToken;
  /** The job store refused a write while this job ran: the job stops and fails with this. */
  fault?: SledgeError;
}

/** How often job-row changes a full disk refused are tried again. */
const PERSIST_RETRY_MS = 2_000;

/** A stable identity for "the same database", used to order preflight schema checks behind queued jobs. */
export function targetKey(t: Target): string {
  const r = t as Record<string, unknown>;
  return [t.engine, r['host'] ?? r['connectString'] ?? '', r['port'] ?? '', r['database'] ?? r['file'] ?? ''].join('|');
}

/**
 * The job engine (main thread): validates and preflights job requests,
 * keeps a FIFO queue (one job runs at a time, as in HammerDB), runs each job
 * body, and owns the per-job frame streams.
 */
export class JobEngine {
  private readonly queue: Queued[] = [];
  private active: Queued | null = null;
  private activeCtx: JobContext | null = null;
  private readonly streams = new Map<string, JobStream>();
  private readonly jobListeners = new Set<(job: Job) => void>();
  private pumping = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private readonly paths: PathPolicy;
  /** Jobs whose final status a full disk refused: written again every PERSIST_RETRY_MS. */
  private readonly unsaved = new Set<JobContext>();
  private persistTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly store: JobStore,
    private readonly opts: EngineOptions,
  ) {
    const dataDir = resolve(opts.dataDir);
    this.paths = {
      root: resolve(opts.filesRoot ?? dataDir),
      confined: opts.filesRoot !== undefined,
      reservedFiles: reservedPaths(store.path),
      reservedDirs: [dataDir, dirname(store.path)],
    };
    store.onStorageFault((e) => this.storageFault(e));
  }

  /**
   * The job store refused a write (full disk, I/O error). The running job
   * stops (its VUs are told at once) and fails with that reason; the server
   * stays up and REST writes answer 507 until there is room again.
   */
  private storageFault(err: SledgeError): void {
    const a = this.active;
    if (!a || a.fault) return;
    a.fault = err;
    this.opts.log(`job ${a.job.id}: ${err.message}; stopping it`);
    a.stop.request();
  }

  private keepTrying(ctx: JobContext): void {
    if (!ctx.hasPending) return;
    this.unsaved.add(ctx);
    this.persistTimer ??= setInterval(() => this.persistUnsaved(), PERSIST_RETRY_MS);
    this.persistTimer.unref();
  }

  private persistUnsaved(): void {
    for (const ctx of this.unsaved) {
      let done: boolean;
      try {
        done = ctx.persistPending();
      } catch (e) {
        // Not a full disk (the job was deleted meanwhile...): nothing left to write.
        this.opts.log(`job ${ctx.id}: giving up writing its final status: ${e instanceof Error ? e.message : String(e)}`);
        done = true;
      }
      if (done) {
        this.unsaved.delete(ctx);
        this.notifyJob(ctx.current);
      }
    }
    if (!this.unsaved.size && this.persistTimer) {
      clearInterval(this.persistTimer);
      this.persistTimer = null;
    }
  }

  onJob(l: (job: Job) => void): () => void {
    this.jobListeners.add(l);
    return () => this.jobListeners.delete(l);
  }

  private notifyJob(job: Job): void {
    for (const l of this.jobListeners) l(job);
  }

  stream(jobId: string): JobStream {
    let s = this.streams.get(jobId);
    if (!s) {
      s = new JobStream(jobId, () => buildSnapshot(this.store, jobId));
      this.streams.set(jobId, s);
    }
    return s;
  }

  /**
   * Resolve the paths a job names on the server's disk (the driver's local
   * file fields, datagen.dir) under the path policy (paths.ts); a build's
   * files must be creatable. Creates nothing.
   */
  private async normalise(cfg: JobConfig): Promise<void> {
    const t = cfg.target as unknown as Record<string, unknown>;
    const fields = usesDb(cfg) ? ((await driverFor(cfg.target)).localFileFields ?? []) : [];
    for (const f of fields) {
      const v = t[f];
      if (typeof v !== 'string') continue;
      const path = resolveJobPath(v, this.paths, `target.${f}`, 'file');
      if (cfg.type === 'build') assertCreatable(dirname(path), this.paths, `target.${f}`);
      t[f] = path;
    }
    // A connect pool's connections name files too (SQLite): the same policy, field by field.
    ((cfg.target.pool?.connections ?? []) as Record<string, unknown>[]).forEach((c, i) => {
      for (const f of fields) {
        const v = c[f];
        if (typeof v === 'string') c[f] = resolveJobPath(v, this.paths, `target.pool.connections.${i}.${f}`, 'file');
      }
    });
    const datagen = datagenOf(cfg);
    if (datagen) {
      datagen.dir = resolveJobPath(datagen.dir, this.paths, 'datagen.dir', 'dir');
      assertCreatable(datagen.dir, this.paths, 'datagen.dir');
    }
  }

  /** Validate, preflight (driver loads, database reachable, schema state) and enqueue. Nothing is stored on failure. */
  async submit(body: unknown): Promise<Job> {
    if (this.closed) throw new SledgeError('SLEDGE_E_CONFLICT', 'the server is shutting down');
    const cfg = parseJobCreate(body, randomSeed());
    if (cfg.baseline) assertBaseline(this.store, cfg.baseline, cfg.workload, cfg.profileId);
    this.fillSecrets(cfg.target, (body as Record<string, unknown>)['configId']);
    await this.normalise(cfg);
    // A data directory that is still full refuses new jobs (507) before anything is stored.
    this.store.assertWritable();
    const optionsKey = workloadDef(cfg.workload)?.optionsKey;
    const explicit = new Set(Object.keys((optionsKey ? ((body as Record<string, unknown>)[optionsKey] as Record<string, unknown> | undefined) : undefined) ?? {}));
    checkPlacement(cfg, this.opts.replicas ?? null);
    if (usesDb(cfg)) await this.preflight(cfg);
    else this.preflightFiles(cfg, (body as Record<string, unknown>)['seed'] !== undefined);
    const job = this.store.createJob({
      type: cfg.type,
      workload: cfg.workload,
      engine: cfg.target.engine,
      config: redact(cfg, secretFields(cfg.target.engine)),
      seed: cfg.seed,
      ...(cfg.label ? { label: cfg.label } : {}),
      profileId: cfg.type === 'run' ? cfg.profileId : 0,
      clientVersion: this.opts.clientVersion,
    });
    this.queue.push({ job, cfg, explicit, stop: new StopToken() });
    this.notifyJob(job);
    this.opts.log(`job ${job.id} queued: ${cfg.type} on ${cfg.target.engine}`);
    void this.pump();
    return job;
  }

  /**
   * Secrets of a saved configuration: every target secret sent as "********"
   * (what the API returns for saved secrets) takes the stored value, but only
   * for the endpoint and user it was saved with (the secret's `x-bound-to`
   * fields): pointed anywhere else, the secret must be typed again. The
   * same holds for the pool connections that would inherit a filled-in
   * secret (assertPoolInheritance).
   */
  private fillSecrets(target: Target, configId: unknown): void {
    if (configId === undefined) return;
    if (!Number.isInteger(configId)) throw new SledgeError('SLEDGE_E_VALIDATION', 'configId must be an integer', { field: 'configId' });
    const saved = this.store.getConfig(configId as number, { withSecrets: true });
    if (!saved) throw new SledgeError('SLEDGE_E_NOT_FOUND', `saved configuration ${String(configId)} not found`, { field: 'configId' });
    const stored = saved.target as Record<string, unknown>;
    const t = target as unknown as Record<string, unknown>;
    const filled: string[] = [];
    for (const k of secretFields(target.engine)) {
      if (t[k] !== REDACTED) continue;
      if (stored['engine'] !== target.engine || typeof stored[k] !== 'string') {
        throw new SledgeError('SLEDGE_E_VALIDATION', `target.${k} is "${REDACTED}" but saved configuration ${String(configId)} has no ${target.engine} ${k}: type the secret`, { field: `target.${k}` });
      }
      const differs = secretBindingMismatch(stored, t, k);
      if (differs.length) {
        throw new SledgeError(
          'SLEDGE_E_VALIDATION',
          `target.${k} is "${REDACTED}" but this target's ${differs.join(', ')} do not match saved configuration ${String(configId)}: a saved secret goes only where it was saved for; type the secret`,
          { field: `target.${k}` },
        );
      }
      t[k] = stored[k];
      filled.push(k);
    }
    fillPoolSecrets(stored, t, (v) => v, `saved configuration ${String(configId)}`);
    // A pool connection pointed elsewhere does not inherit a secret filled in here: it must bring its own.
    assertPoolInheritance(t, filled, stored, `saved configuration ${String(configId)}`);
  }

  /**
   * Test a target's connection: the server version and the schema state of
   * `workload` (the default workload when not given, or when the workload
   * reads no schema state of its own: CH-benCHmark's is TPROC-C's), as that
   * workload reads it (WorkloadRunner.schemaState); or the typed error.
   */
  async testTarget(targetBody: unknown, configId?: unknown, workload?: string): Promise<TargetTestResult> {
    const asked = workload === undefined ? undefined : parseJobCreate({ type: 'check', workload, target: targetBody }, 0);
    const cfg = asked && workloadRunner(asked.workload).schemaState ? asked : parseJobCreate({ type: 'check', target: targetBody }, 0);
    const runner = workloadRunner(cfg.workload);
    this.fillSecrets(cfg.target, configId);
    await this.normalise(cfg);
    const driver = await this.usableDriver(cfg.target);
    const session = await driver.openSession(cfg.target, () => undefined);
    let version: string;
    try {
      version = await session.serverVersion();
    } finally {
      await session.close();
    }
    if (!runner.schemaState) throw new SledgeError('SLEDGE_E_VALIDATION', `the ${cfg.workload} workload does not read its schema on a target`, { field: 'workload' });
    return { version, workload: cfg.workload, schema: await runner.schemaState(cfg, driver) };
  }

  /** One ASH sample of a target, without a job (the metrics page's live view). */
  async sampleAsh(targetBody: unknown, configId?: unknown): Promise<{ source: string; samples: unknown[] }> {
    const cfg = parseJobCreate({ type: 'check', target: targetBody }, 0);
    this.fillSecrets(cfg.target, configId);
    await this.normalise(cfg);
    const driver = await this.usableDriver(cfg.target);
    if (!driver.openAshSampler) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `${cfg.target.engine} is sampled client-side by its virtual users: ASH exists only while a job runs`, { field: 'target.engine' });
    }
    const s = await driver.openAshSampler(cfg.target, () => undefined);
    try {
      return { source: s.source, samples: await s.sample() };
    } finally {
      await s.close();
    }
  }

  private async usableDriver(target: Target): Promise<Driver> {
    const driver = await driverFor(target);
    const probe = await driver.probe();
    if (!probe.available) {
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${target.engine} client library (${driver.library}) does not load: ${probe.reason ?? 'unknown reason'}${probe.install ? `. To fix: ${probe.install}` : ''}`, {
        field: 'target.engine',
      });
    }
    return driver as unknown as Driver;
  }

  /** The workload's checks before a database job is stored, on a driver that loads. */
  private async preflight(cfg: JobConfig): Promise<void> {
    const driver = await this.usableDriver(cfg.target);
    const key = targetKey(cfg.target);
    const busy = (this.active && targetKey(this.active.cfg.target) === key) || this.queue.some((q) => targetKey(q.cfg.target) === key);
    if (driver.features(cfg.target).mainThreadSessions) checkMainThreadRun(cfg, driver);
    await workloadRunner(cfg.workload).preflight?.(cfg, driver, { busy });
  }

  /** Checks of a file-only job (datagen): its directory is not another job's, then the workload's own checks. */
  private preflightFiles(cfg: JobConfig, seedExplicit: boolean): void {
    const dir = datagenOf(cfg)?.dir;
    const other = dir === undefined ? undefined : [this.active, ...this.queue].find((q) => q && datagenOf(q.cfg)?.dir === dir);
    if (other) {
      throw new SledgeError('SLEDGE_E_CONFLICT', `datagen.dir ${dir} is in use by job ${other.job.id}: wait for it to end or choose another directory`, { field: 'datagen.dir' });
    }
    workloadRunner(cfg.workload).preflightFiles?.(cfg, { seedExplicit });
  }

  stop(jobId: string): Job {
    const job = this.store.getJob(jobId);
    if (!job) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${jobId} not found`, { field: 'id' });
    if (isTerminal(job.status)) throw new SledgeError('SLEDGE_E_CONFLICT', `job ${jobId} has already ended (${job.status})`);
    const qi = this.queue.findIndex((q) => q.job.id === jobId);
    if (qi >= 0) {
      const [q] = this.queue.splice(qi, 1);
      const ctx = this.context(q!.job, q!.cfg);
      ctx.output(0, 'Job stopped before it started');
      ctx.status('stopped');
      ctx.update({ endedAt: new Date().toISOString() });
      return ctx.current;
    }
    if (this.active?.job.id === jobId) {
      this.active.stop.request();
      const j = this.store.updateJob(jobId, { status: 'stopping' });
      this.stream(jobId).emit({ t: 'status', jobId, status: 'stopping', ts: Date.now() }, true);
      this.notifyJob(j);
      return j;
    }
    return job;
  }

  private context(job: Job, cfg: JobConfig): JobContext {
    // A job that never uses its target (datagen) has no secrets to scrub; scrubbing a default password such as "postgres" would mangle its paths.
    const secrets = usesDb(cfg) ? secretValues(cfg.target) : [];
    return new JobContext(job, this.store, this.stream(job.id), (j) => this.notifyJob(j), secrets);
  }

  /** The server's data directory (absolute). */
  get dataDir(): string {
    return resolve(this.opts.dataDir);
  }

  /** Where jobs' relative file paths resolve (absolute): SLEDGE_FILES_ROOT, else the data directory. */
  get filesRoot(): string {
    return this.paths.root;
  }

  get agents(): AgentHub {
    return this.opts.agents;
  }

  /** The replicas joined over NATS, when scale-out is on. */
  get replicas(): ReplicaHub | null {
    return this.opts.replicas ?? null;
  }

  /** The running job's context (live values), if any. */
  get activeContext(): JobContext | null {
    return this.activeCtx;
  }

  get activeJobId(): string | null {
    return this.active?.job.id ?? null;
  }

  queuedJobIds(): string[] {
    return this.queue.map((q) => q.job.id);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (!this.closed && this.queue.length) {
        const q = this.queue.shift()!;
        this.active = q;
        await this.execute(q);
        this.active = null;
      }
    } finally {
      this.pumping = false;
      if (!this.queue.length) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  /** Resolves when no job is running or queued. */
  idle(): Promise<void> {
    if (!this.active && !this.queue.length) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private async execute(q: Queued): Promise<void> {
    const ctx = this.context(q.job, q.cfg);
    this.activeCtx = ctx;
    ctx.update({ startedAt: new Date().toISOString() });
    ctx.status('connecting');
    let final: 'completed' | 'stopped' | 'failed' = 'failed';
    let samplers: JobSamplers | null = null;
    let statements: StatementWindow | null = null;
    try {
      const body = jobBody(q.cfg.workload, q.cfg.type);
      if (!body.db) {
        final = await body.run({ ctx, cfg: q.cfg, stop: q.stop, generator: this.opts.generator });
      } else {
        const driver = await this.usableDriver(q.cfg.target);
        // Names this job's VU sessions, so its ASH tells them from another tool's sessions of the same name.
        const sessionTag = newSessionTag();
        if (body.sampled) {
          samplers = new JobSamplers(ctx, q.cfg, driver, this.opts.agents, sessionTag);
          await samplers.start();
        }
        // A run records what the engine was set to and, where the engine counts them, what its statements cost (docs/compare.md).
        if (q.cfg.type === 'run') {
          await recordEngineSettings(ctx, q.cfg, driver);
          statements = await StatementWindow.open(ctx, q.cfg, driver);
        }
        final = await body.run({
          samplers,
          sessionTag,
          ctx,
          cfg: q.cfg,
          driver,
          stop: q.stop,
          cpus: this.opts.cpus,
          generator: this.opts.generator,
          vuLoop: this.opts.vuLoop ?? 'auto',
          ...(this.opts.pgVuAddonPath !== undefined ? { pgVuAddonPath: this.opts.pgVuAddonPath } : {}),
          explicit: q.explicit,
          ...(this.opts.replicas ? { placeVus: placeOnReplicas(this.opts.replicas) } : {}),
        });
      }
      await statements?.end();
      if (q.fault) throw q.fault;
      if (q.stop.requested && final === 'completed' && q.cfg.type !== 'run') final = 'stopped';
      await samplers?.stop();
      this.judge(ctx);
      ctx.update({ endedAt: new Date().toISOString() });
      ctx.status(final);
    } catch (e) {
      await statements?.end().catch(() => undefined);
      await samplers?.stop().catch(() => undefined);
      // A storage fault is the cause even when the body ended with another error (stopped VUs, a refused write).
      const err = q.fault ?? toSledgeError(e, 'SLEDGE_E_DB');
      if (err.code === 'SLEDGE_E_INTERNAL') this.opts.log(`job ${q.job.id} failed with an internal error: ${String((e as Error)?.stack ?? e)}`);
      ctx.output(1, `Error: ${err.message}`);
      ctx.output(0, `Vuser 1:FINISHED FAILED`);
      this.judge(ctx);
      ctx.update({ endedAt: new Date().toISOString(), summary: err.message.slice(0, 200) });
      ctx.status('failed', err.toInfo());
    } finally {
      // Everything the job produced is stored: its live stream no longer keeps frames for resuming.
      this.stream(q.job.id).release();
      this.activeCtx = null;
      this.keepTrying(ctx);
      this.opts.log(`job ${q.job.id} ${ctx.current.status}${ctx.hasPending ? ' (not yet written to the job store: the disk is full; retrying)' : ''}`);
    }
  }

  /**
   * A job with thresholds or a baseline is judged before its final status is
   * written, so whoever sees it ended sees its verdict too. An evaluation that
   * throws is logged and leaves the job unjudged rather than failing it.
   */
  private judge(ctx: JobContext): void {
    const j = judgingOf(ctx.current);
    if (!hasJudging(j)) return;
    try {
      ctx.judged(judgeJob(this.store, ctx.current, j, ctx.runningVerdict));
    } catch (e) {
      this.opts.log(`job ${ctx.id}: thresholds not evaluated: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Stop everything: queued jobs are stopped, the active job is asked to stop and awaited (bounded). */
  async close(timeoutMs = 15_000): Promise<void> {
    this.closed = true;
    for (const q of this.queue.splice(0)) {
      const ctx = this.context(q.job, q.cfg);
      ctx.status('stopped');
      ctx.update({ endedAt: new Date().toISOString() });
    }
    if (this.active) {
      this.active.stop.request();
      await Promise.race([this.idle(), new Promise((r) => setTimeout(r, timeoutMs))]);
    }
    for (const s of this.streams.values()) s.close();
    this.persistUnsaved();
    if (this.persistTimer) clearInterval(this.persistTimer);
    this.persistTimer = null;
  }
}
