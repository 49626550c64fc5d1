import type { Driver, RunMonitor, RunSetup, VuPlan, VuWorkload } from '@sledge/core';
import { METRIC_KINDS, SledgeError, jobWorkloadDef, workloadDef, type DriverFeatures, type ResultOf, type Target, type Validity, type WorkloadConfig } from '@sledge/protocol';
import type { JobEnv } from '../engine/job-types.js';
import { PHASE_DONE, PHASE_MEASURING, PHASE_RAMPUP, RUN_STOP, allocShared, type SharedBlocks } from '../shared/layout.js';
import type { ModuleRef, VuLoopPreference, VuWorkerData } from '../shared/messages.js';
import { CounterReader, type Totals } from './counters.js';
import { checkSessionFds } from './fd-limit.js';
import { FaultReader, survivedLine } from './faults.js';
import { PhaseClock } from './phase-clock.js';
import { RunSamplers } from './run-samplers.js';
import { validityLines } from './validity-lines.js';
import { timingRows } from './timings.js';
import { poolReport } from './pool-tpm.js';
import { VuPool, assignVus } from './vu-pool.js';
import type { RemoteVus, VuHost } from './vu-host.js';
import { StepRunner } from './steps.js';
import { ArrivalMeter } from './arrival-meter.js';
import { AbortWatch } from './abort-watch.js';
import { CapacityRun } from './capacity.js';

/** Grace for VUs to finish their current operation at the end of a run, before threads are terminated. */
const END_GRACE_MS = 10_000;
/** Grace after a user's stop: stop takes effect within a second. */
const STOP_GRACE_MS = 1_000;

/** Which loop runs a run's VUs, and the monitor's line saying so. */
export interface LoopChoice {
  loop: 'native' | 'typescript';
  line: string;
}

/** A workload's native VU loop: chosen per run in the main thread, started in each VU worker by `host` (a NativeVuHost). */
export interface NativeLoop<Options = unknown> {
  choose(pref: VuLoopPreference, driver: Driver, target: Target, options: Options, addonPath?: string): LoopChoice;
  host: ModuleRef;
  /** Native threads for a VU worker thread hosting `hosted` VUs on a machine of `cores` (a loop that runs several VUs on a thread); absent: one per VU. */
  threads?(options: Options, hosted: number, cores: number): number;
}

/** What the generic runner needs to run a workload's VUs: typed by the workload's options and job configuration (whose result its monitor computes). */
export interface VuJobSpec<Options = unknown, C extends WorkloadConfig = WorkloadConfig> {
  workload: VuWorkload<Options, unknown, ResultOf<C>>;
  /** Where VU worker threads import `workload` from (its package and export name, or a file URL). */
  module: ModuleRef;
  /** The workload's options in a job configuration. */
  options(cfg: C): Options;
  native?: NativeLoop<Options>;
  /**
   * The run's validity verdict (result field `validity`), computed when a
   * timed run's measured window ended and its VUs stopped: the workload's own
   * checks on what the run measured. A verdict that throws is left out.
   */
  validity?(input: ValidityInput<C>): Promise<Validity>;
  /** Load of another shape that runs beside the VUs for the same timed window (CH-benCHmark's analytic streams). */
  companion?(env: JobEnv<C>, at: CompanionPlace): RunCompanion;
}

/** What a workload's validity checks read at the end of a timed run (generic figures; the workload knows what its operations and samples mean). */
export interface ValidityInput<C extends WorkloadConfig = WorkloadConfig> {
  env: JobEnv<C>;
  /** The monitor's result of the window. */
  result: ResultOf<C>;
  /** The workload's operations, in counter order. */
  ops: readonly string[];
  /** Client counts over the measured window. */
  window: { seconds: number; commits: number; rollbacks: number; errors: number; perOp: number[]; rollbacksPerOp: number[] };
  /** The client process's CPU over the window (ms; absent when the VUs ran on replicas), the threads running its VUs (worker threads, or one per VU for native loops) and this machine's cores. */
  client: { cpuMs?: number; workers: number; cores: number };
  vus: number;
  features: DriverFeatures;
  /** The monitor's live samples taken inside the measured window (the workload's LiveSample shape). */
  samples: unknown[];
}

/** Where a companion's output goes: its first output VU number (after the monitor and the VUs). */
export interface CompanionPlace {
  firstVu: number;
}

/**
 * A companion of a timed run: started with the VUs (rampup), told when the
 * measured window starts and ends, asked for its result fields and lines at
 * the end. A stop request reaches it through the job's StopToken.
 */
export interface RunCompanion {
  start(): void;
  windowStart(): void;
  /** The measured window ended: what runs is ended (cancelled, not counted). */
  windowEnd(): Promise<void>;
  /** Its failure (a raised query error), or null: the run fails with it. */
  failure(): unknown;
  /** Fields merged into the run's result and the monitor's closing lines. */
  result(windowSeconds: number): { fields: Record<string, unknown>; lines: string[] };
  /** Ends what still runs; awaited before the run closes. */
  close(): Promise<void>;
}

/** The measured window's readings, as taken at its two ends. */
interface Window {
  start: unknown;
  end: unknown;
  startClient: Totals;
  endClient: Totals;
  seconds: number;
  /** Connect pool runs: the client-side figures read at the window's end. */
  pool?: ReturnType<typeof poolReport>;
  cpu: NodeJS.CpuUsage;
  /** Run shapes' figures added to the result. */
  shapes?: Record<string, unknown>;
}

/**
 * A run of any workload's VUs. Timed: rampup, then a measured window between
 * two readings of the workload's monitor (hammerdb.md §6.3). Test: every VU
 * runs its operations and prints each one.
 */
export async function runVuJob<Options, C extends WorkloadConfig>(env: JobEnv<C>, spec: VuJobSpec<Options, C>): Promise<'completed' | 'stopped'> {
  const run = await VuRun.open<C>(env, spec);
  try {
    return await run.execute();
  } finally {
    await run.close();
  }
}

class VuRun<C extends WorkloadConfig> {
  private readonly plan: VuPlan;
  private readonly ops: readonly string[];
  private readonly timed: boolean;
  private readonly shared: SharedBlocks;
  private readonly counters: CounterReader;
  private readonly faults: FaultReader;
  private readonly pool: VuHost;
  /** The run's VUs on replicas (placement.on = replicas), else null: pool is a VuPool here. */
  private readonly remote: RemoteVus | null;
  private samplers: RunSamplers | null = null;
  /** The final VU grid is due when the run ends (set once the VUs run), and whether it was sent. */
  private gridDue = false;
  private finalGrid = false;
  private readonly mon: (text: string) => void;
  /** Run shapes, when the plan has them. */
  private steps: StepRunner | null = null;
  private arrival: ArrivalMeter | null = null;
  /** A capacity search (plan.capacity) steering the arrival rate. */
  private capacity: CapacityRun | null = null;
  /** When the VUs were released (performance.now()). */
  private released = 0;
  /** Thresholds marked `:abort`, judged during the measured window. */
  private watch: AbortWatch | null = null;
  /** Load beside the VUs (spec.companion), timed runs only. */
  private companion: RunCompanion | null = null;
  /** Threads running the VUs (worker threads, or native VU threads; set when the VUs start). */
  private workers = 1;

  private constructor(
    private readonly env: JobEnv<C>,
    private readonly spec: VuJobSpec<unknown, C>,
    private readonly options: unknown,
    private readonly features: DriverFeatures,
    private readonly monitor: RunMonitor<unknown, unknown, ResultOf<C>>,
  ) {
    this.plan = spec.workload.vuPlan(options);
    this.ops = spec.workload.operations;
    this.timed = this.plan.mode === 'timed';
    this.mon = (text) => env.ctx.output(1, text);
    this.shared = allocShared(this.plan.vus, this.ops.length, env.cfg.target.pool?.connections.length ?? 0);
    const states = new Int32Array(this.shared.states);
    this.counters = new CounterReader(new Int32Array(this.shared.counters), states, this.plan.vus, this.ops.length);
    this.faults = new FaultReader(new Int32Array(this.shared.faults), this.plan.vus, this.ops);
    this.remote = this.placeRemote();
    this.pool = this.remote ?? new VuPool(this.shared.control, states, { output: (lines) => env.ctx.outputMany(lines) }, false, features.mainThreadSessions === true);
  }

  /** A run placed on replicas: its RemoteVus (refused where the run needs this server's threads). */
  private placeRemote(): RemoteVus | null {
    const { cfg, placeVus, ctx } = this.env;
    const p = cfg.placement;
    if (p?.on !== 'replicas') return null;
    if (!placeVus) throw new SledgeError('SLEDGE_E_VALIDATION', 'placement.on is "replicas" but this server is not connected to NATS: start it with SLEDGE_NATS_URL (and SLEDGE_NATS_TOKEN), or set placement.on to "local"', { field: 'placement' });
    if (this.plan.arrival) throw new SledgeError('SLEDGE_E_VALIDATION', 'an arrival rate is paced on this server: set placement.on to "local" for it', { field: 'placement' });
    return placeVus(p, { shared: this.shared, ops: this.ops, mon: this.mon, output: (lines) => ctx.outputMany(lines) });
  }

  static async open<C extends WorkloadConfig>(env: JobEnv<C>, spec: VuJobSpec<unknown, C>): Promise<VuRun<C>> {
    const { cfg, driver, ctx } = env;
    const options = spec.options(cfg);
    // A workload whose operations depend on its options (VuWorkload.forOptions) runs as this job's instance.
    if (spec.workload.forOptions) spec = { ...spec, workload: spec.workload.forOptions(options) };
    const features = driver.features(cfg.target);
    const monitor = await spec.workload.openMonitor({ driver, target: cfg.target, engine: cfg.target.engine, features, options, log: (text: string) => ctx.output(1, text) });
    return new VuRun(env, spec, options, features, monitor);
  }

  async execute(): Promise<'completed' | 'stopped'> {
    const { ctx, stop } = this.env;
    const { setup, loop, workers } = await this.prepare();
    // Native VUs run on threads of their own inside the worker thread that hosts them: one each, or the loop's share (NativeLoop.threads).
    this.workers = loop.loop === 'native' ? this.nativeThreads(workers).reduce((a, b) => a + b, 0) || Math.max(workers, this.plan.vus) : workers;
    await this.startVus(setup, loop, workers);
    // Like HammerDB's vucreate before vurun: threads start and load their driver before the clock starts.
    await Promise.race([this.pool.allReady, this.pool.allDone, stop.promise]);
    const shape = new Int32Array(this.shared.shape);
    if (this.plan.steps) this.steps = new StepRunner(this.plan.steps, shape, this.monitor, this.counters, this.ops, ctx, stop, this.mon);
    if (this.steps && this.remote) this.steps.onActive = (n) => this.remote!.setActive(n);
    if (this.plan.arrival) this.arrival = new ArrivalMeter(this.plan.arrival, shape, this.counters, ctx, this.mon);
    this.arrival?.start();
    this.capacity = this.capacityRun();
    this.released = performance.now();
    this.pool.go();
    if (this.timed && this.spec.companion) {
      this.companion = this.spec.companion(this.env, { firstVu: this.plan.vus + 2 });
      this.companion.start();
    }
    this.steps?.start();
    this.env.samplers?.attachClient(this.shared.ash, this.plan.vus);
    ctx.status(this.timed ? 'rampup' : 'running');
    this.samplers = new RunSamplers(ctx, this.ops, this.counters, this.pool, this.timed ? 'rampup' : 'running', this.faults, this.mon);
    if (this.steps) this.samplers.onTick.push((h) => this.steps!.addInterval(h));
    if (this.arrival) this.samplers.onTick.push(() => this.arrival!.tick());
    if (this.capacity) this.samplers.onTick.push(this.capacity.onTick);
    this.watch = this.timed ? this.abortWatch() : null;
    if (this.watch) this.samplers.onTick.push(this.watch.onTick);
    this.samplers.start(this.monitor, this.plan.monitorIntervalSec, this.mon);
    this.gridDue = true;
    stop.onStop(() => this.pool.setRun(RUN_STOP));
    return this.timed ? this.timedRun() : this.testRun();
  }

  /** The run's `:abort` thresholds (null without any): they read the monitor, the counters and the interval latency. */
  private abortWatch(): AbortWatch | null {
    const def = workloadDef(this.env.cfg.workload);
    if (!def) return null;
    return AbortWatch.of(this.env.cfg, {
      def: jobWorkloadDef(def, this.options),
      ops: this.ops,
      labels: this.spec.workload.operationLabels,
      monitor: this.monitor,
      counters: this.counters,
      vus: this.plan.vus,
      extra: () => {
        const { survived: _s, ...f } = this.faultFields();
        return f;
      },
      mon: this.mon,
    });
  }

  /** The run's capacity search (plan.capacity on an arrival-rate run), else null. */
  private capacityRun(): CapacityRun | null {
    const def = workloadDef(this.env.cfg.workload);
    if (!this.plan.capacity || !this.arrival || !this.plan.arrival || !def) return null;
    return new CapacityRun(
      this.plan.capacity,
      this.plan.arrival.rate,
      {
        def,
        ops: this.ops,
        labels: this.spec.workload.operationLabels,
        meter: this.arrival,
        monitor: this.monitor,
        counters: this.counters,
        faults: this.faults,
        vus: this.plan.vus,
        ctx: this.env.ctx,
        stop: this.env.stop,
        mon: this.mon,
        sinceRelease: () => (performance.now() - this.released) / 1000,
      },
      `${def.optionsKey}.capacity.slo`,
    );
  }

  /** The monitor's checks and the run's header lines; which loop, how many worker threads. */
  private async prepare(): Promise<{ setup: RunSetup; loop: LoopChoice; workers: number }> {
    const { ctx, cfg, driver, cpus } = this.env;
    const { plan, mon } = this;
    const version = await this.monitor.serverVersion();
    ctx.update({ engineVersion: version });
    const setup = await this.monitor.prepare();
    const vus = plan.vus;
    const fdLine = checkSessionFds(vus * (plan.async ? plan.clients : 1), `${this.spec.workload.id}.${plan.async ? 'asyncClients' : 'vus'}`);
    if (fdLine) mon(fdLine);
    const native = this.remote ? undefined : this.spec.native;
    const loop = this.remote
      ? { loop: 'typescript' as const, line: 'Virtual users run on replicas' }
      : native
      ? native.choose(this.env.vuLoop ?? 'auto', driver, cfg.target, this.options, this.env.pgVuAddonPath)
      : { loop: 'typescript' as const, line: `Virtual users run in JavaScript (the ${this.spec.workload.name} workload has no native VU loop)` };
    // Native VUs run on their own threads: one worker thread hosts them all unless workers are set.
    // Sessions that stay on the main thread (mainThreadSessions): one group there hosts every VU.
    const workers = this.features.mainThreadSessions
      ? 1
      : loop.loop === 'native' ? Math.max(1, Math.min(vus, plan.workers || 1)) : this.features.asyncSessions ? Math.max(1, Math.min(vus, plan.workers || cpus)) : vus;
    if (this.timed) {
      mon(`${vus + 1} Virtual Users Created with Monitor VU`);
      ctx.output(0, 'Vuser 1:RUNNING');
    } else mon(`${vus} Virtual Users Created (test driver: ${plan.opsPerIteration} transactions each)`);
    // HammerDB's monitor prints the version once it runs (after its `Vuser 1:RUNNING`).
    mon(`DBVersion:${version}`);
    if (this.remote) mon(setup.summary);
    else if (this.features.mainThreadSessions) {
      mon(`${vus} VU(s) on the server's main thread (${cfg.target.engine} keeps one instance of the database in this process, and its sessions on that thread); ${setup.summary}`);
      mon(loop.line);
    } else {
      mon(`${vus} VU(s) on ${workers} worker thread(s); ${setup.summary}`);
      mon(loop.line);
      const threads = loop.loop === 'native' ? this.nativeThreads(workers) : [];
      if (threads.length) mon(`The native loop runs the ${vus} VU(s) on ${threads.reduce((a, b) => a + b, 0)} thread(s)`);
    }
    ctx.metric(METRIC_KINDS.run, [{ ts: Date.now(), data: { ...setup.runInfo, vus, workers } }]);
    return { setup, loop, workers };
  }

  /** The native threads of each VU worker thread, for a loop that runs several VUs on a thread (NativeLoop.threads); empty otherwise. */
  private nativeThreads(workers: number): number[] {
    const per = this.spec.native?.threads;
    if (!per) return [];
    return assignVus(this.plan.vus, workers, this.plan.userDelayMs).map((vus) => per(this.options, vus.length, this.env.cpus));
  }

  private async startVus(setup: RunSetup, loop: LoopChoice, workers: number): Promise<void> {
    const { cfg, pgVuAddonPath } = this.env;
    const phase = this.timed ? PHASE_RAMPUP : PHASE_MEASURING;
    if (this.remote) {
      const all = assignVus(this.plan.vus, 1, this.plan.userDelayMs)[0]!;
      const lines = await this.remote.start({
        jobId: this.env.ctx.current.id,
        workload: this.spec.workload.id,
        target: cfg.target,
        seed: cfg.seed,
        options: this.options,
        params: setup.params,
        plan: this.plan,
        vus: all,
        vuLoop: this.env.vuLoop ?? 'auto',
        ...(this.env.sessionTag ? { sessionTag: this.env.sessionTag } : {}),
      });
      for (const l of lines) this.mon(l);
      this.pool.setPhase(phase);
      return;
    }
    this.pool.setPhase(phase);
    const native = loop.loop === 'native' ? this.spec.native?.host : undefined;
    const threads = native ? this.nativeThreads(workers) : [];
    const datas = assignVus(this.plan.vus, workers, this.plan.userDelayMs).map(
      (vus, w): VuWorkerData => ({
        kind: 'vu',
        loop: loop.loop,
        workload: this.spec.module,
        ...(native ? { native } : {}),
        ...(threads[w] !== undefined ? { nativeThreads: threads[w] } : {}),
        ...(pgVuAddonPath !== undefined ? { pgVuAddonPath } : {}),
        engine: cfg.target.engine,
        target: cfg.target,
        seed: cfg.seed,
        options: this.options,
        params: setup.params,
        plan: this.plan,
        activeVus: this.plan.vus,
        vus,
        ...(this.env.sessionTag ? { sessionTag: this.env.sessionTag } : {}),
        shared: this.shared,
      }),
    );
    (this.pool as VuPool).start(datas);
  }

  /** The final VU grid: VUs whose thread was terminated, or that never started, end as finished. */
  private finalVus(): void {
    this.pool.settleStates(this.plan.vus);
    this.env.ctx.vus(this.counters.perVu());
    this.finalGrid = true;
  }

  private async stopVus(graceMs: number): Promise<void> {
    await this.pool.stop(graceMs);
    this.finalVus();
  }

  private throwFailure(): void {
    if (this.pool.failure) throw SledgeError.fromInfo(this.pool.failure);
  }

  private rows() {
    return timingRows(this.pool.profiles, this.plan.timeProfile, this.ops, this.spec.workload.operationLabels);
  }

  private async testRun(): Promise<'completed' | 'stopped'> {
    const { ctx, stop } = this.env;
    await Promise.race([this.pool.allDone, stop.promise]);
    await this.stopVus(STOP_GRACE_MS);
    this.samplers!.clientTick();
    this.samplers!.stop();
    this.throwFailure();
    ctx.timings(this.rows());
    const tot = this.counters.totals();
    ctx.output(0, 'ALL VIRTUAL USERS COMPLETE');
    this.mon(`Test driver complete: ${tot.commits} commits, ${tot.rollbacks} rollbacks, ${tot.errors} errors`);
    if (tot.errors > 0) this.mon(this.faultFields().survived);
    ctx.update({ summary: `test driver: ${tot.ops} transactions, ${tot.errors} errors` });
    return stop.requested ? 'stopped' : 'completed';
  }

  /** The monitor's reading at a window boundary; a failure says which reading it was. */
  private async monitorCount(which: 'start' | 'end'): Promise<unknown> {
    try {
      return await this.monitor.read();
    } catch (e) {
      const code = SledgeError.is(e) ? e.code : 'SLEDGE_E_DB';
      const tried = this.monitor.reconnects ? ' (the monitor tried to reconnect: NOPM and TPM of the window cannot be computed)' : '';
      throw new SledgeError(code, `the monitor could not take the ${which} transaction count: ${e instanceof Error ? e.message : String(e)}${tried}`, { cause: e });
    }
  }

  private async timedRun(): Promise<'completed' | 'stopped'> {
    const { ctx, stop } = this.env;
    const { plan, mon } = this;
    const clock = new PhaseClock(stop, this.pool.allDone, mon);
    mon(`Beginning rampup time of ${plan.rampupMinutes} minutes`);
    if (plan.rampupMinutes > 0 && !(await clock.sleepMinutes(plan.rampupMinutes, (k) => `Rampup ${k} minutes complete ...`))) return this.endEarly();
    let holdRate: number | null = null;
    if (this.capacity) {
      // The search runs between rampup and the measured window, which holds the rate it found.
      const found = await this.capacity.searchRate();
      if (found === 'stopped') return this.endEarly();
      if (found.rate === null) {
        throw new SledgeError('SLEDGE_E_THRESHOLD_ABORT', `capacity search: no arrival rate met the SLO ${plan.capacity!.slo} (${found.reason}): lower ${this.spec.workload.id}.arrival.rate or loosen the SLO`);
      }
      holdRate = found.rate;
      mon(`Capacity search: holding ${holdRate}/s for ${plan.capacity!.holdSeconds} s`);
    }
    mon('Rampup complete, Taking start Transaction Count.');
    const start = await this.monitorCount('start');
    const startClient = this.counters.totals();
    this.remote?.markWindow('start');
    this.companion?.windowStart();
    this.arrival?.beginWindow();
    if (holdRate !== null) await this.capacity!.begin();
    const tStart = performance.now();
    const cpu0 = process.cpuUsage();
    this.pool.setPhase(PHASE_MEASURING);
    this.samplers!.phase = 'measuring';
    ctx.status('measuring');
    // A failed `:abort` threshold ends the window as a stop would; endEarly says why.
    this.watch?.begin(start, startClient, () => stop.request());
    const windowMinutes = holdRate !== null ? plan.capacity!.holdSeconds / 60 : plan.durationMinutes;
    mon(`Timing test period of ${Math.round(windowMinutes * 1000) / 1000} in minutes`);
    if (!(await clock.sleepMinutes(windowMinutes, (k) => `${k} ...,`))) return this.endEarly();
    this.watch?.end();
    if (this.watch?.verdict) return this.endEarly();
    mon('Test complete, Taking end Transaction Count.');
    const end = await this.monitorCount('end');
    const endClient = this.counters.totals();
    this.remote?.markWindow('end');
    await this.companion?.windowEnd();
    const capacity = holdRate !== null ? this.capacity!.finish(await this.capacity!.end('hold', holdRate)) : undefined;
    const arrival = this.arrival?.endWindow();
    const pool = this.poolFigures();
    const seconds = (performance.now() - tStart) / 1000;
    const cpu = process.cpuUsage(cpu0);
    this.pool.setPhase(PHASE_DONE);
    this.samplers!.phase = 'done';
    return this.finish({ start, end, startClient, endClient, seconds, cpu, ...(pool ? { pool } : {}), ...(arrival ? { shapes: { arrival, ...(capacity ? { capacity } : {}) } } : {}) });
  }

  /** A connect pool run's client-side TPM per operation and per pool connection (HammerDB: counts ÷ (rampup + duration)). */
  private poolFigures(): ReturnType<typeof poolReport> | undefined {
    const pool = this.env.cfg.target.pool;
    if (!pool || !this.shared.pool) return undefined;
    const minutes = this.plan.rampupMinutes + this.plan.durationMinutes;
    return poolReport(pool, this.ops, new Int32Array(this.shared.counters), new Int32Array(this.shared.pool), this.plan.vus, minutes);
  }

  /** The window's result (the workload's monitor computes it and its lines), the time profile, post-run maintenance. */
  private async finish(w: Window): Promise<'completed'> {
    const { ctx } = this.env;
    const { mon } = this;
    const clientOps = w.endClient.ops - w.startClient.ops;
    const cpuMs = (w.cpu.user + w.cpu.system) / 1000;
    const cpuPer1000 = clientOps > 0 ? Math.round((cpuMs / clientOps) * 1000 * 100) / 100 : undefined;
    const outcome = this.monitor.result({
      start: w.start,
      end: w.end,
      seconds: w.seconds,
      clientOps,
      perOp: w.endClient.perOp.map((v, i) => v - (w.startClient.perOp[i] ?? 0)),
      errorsPerOp: w.endClient.errorsPerOp.map((v, i) => v - (w.startClient.errorsPerOp[i] ?? 0)),
      // On replicas, this server's CPU is not the clients': each replica's is its own.
      ...(cpuPer1000 !== undefined && !this.remote ? { clientCpuMsPer1000: cpuPer1000 } : {}),
      vus: this.plan.vus,
    });
    const poolFields = w.pool ? { clientTpm: w.pool.clientTpm, targets: w.pool.targets } : {};
    if (w.pool) outcome.lines.push(...w.pool.lines);
    let companionFields: Record<string, unknown> = {};
    if (this.companion) {
      const failed = this.companion.failure();
      if (failed) throw failed;
      const c = this.companion.result(w.seconds);
      companionFields = c.fields;
      outcome.lines.push(...c.lines);
    }
    for (const line of outcome.lines) mon(line);
    const shapes: Record<string, unknown> = { ...w.shapes };
    if (this.steps) shapes['steps'] = await this.steps.finish();
    if (cpuPer1000 !== undefined) mon(`${this.remote ? 'Primary' : 'Client'} CPU: ${cpuPer1000} ms per 1000 transactions (${clientOps} transactions in ${w.seconds.toFixed(1)} s)`);
    await this.stopVus(END_GRACE_MS);
    if (this.remote) {
      const r = this.remote.report(w.seconds);
      for (const x of r.replicas) mon(`Replica ${x.name}: VUs ${x.vus.join(',')}: ${x.transactions} transactions, ${x.clientTpm} client TPM, ${x.finishedVus} finished${x.lostAt ? `, lost at ${new Date(x.lostAt).toISOString()}` : ''}`);
      Object.assign(shapes, r);
    }
    this.samplers!.clientTick();
    this.samplers!.stop();
    this.throwFailure();
    const faults = this.faultFields();
    if (faults.errors.total > 0 || faults.disruptions.length > 0 || faults.monitorReconnects > 0) mon(faults.survived);
    const validity = await this.validity(w, outcome.result, cpuMs);
    ctx.result({ ...outcome.result, ...poolFields, ...companionFields, ...faults, ...shapes, ...(validity ? { validity } : {}) }, this.rows());
    ctx.output(0, 'Vuser 1:FINISHED SUCCESS');
    ctx.output(0, 'ALL VIRTUAL USERS COMPLETE');
    try {
      await this.monitor.afterRun();
    } catch (e) {
      mon(`Post-run maintenance failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return 'completed';
  }

  /** The workload's validity verdict of the window (spec.validity), its lines in the monitor's output; undefined without one or when it could not be computed. */
  private async validity(w: Window, result: ResultOf<C>, cpuMs: number): Promise<Validity | undefined> {
    if (!this.spec.validity) return undefined;
    const a = w.startClient;
    const b = w.endClient;
    const diff = (x: number[], y: number[]) => y.map((v, i) => v - (x[i] ?? 0));
    try {
      const v = await this.spec.validity({
        env: this.env,
        result,
        ops: this.ops,
        window: { seconds: w.seconds, commits: b.commits - a.commits, rollbacks: b.rollbacks - a.rollbacks, errors: b.errors - a.errors, perOp: diff(a.perOp, b.perOp), rollbacksPerOp: diff(a.rollbacksPerOp, b.rollbacksPerOp) },
        client: { ...(this.remote ? {} : { cpuMs }), workers: this.workers, cores: this.env.cpus },
        vus: this.plan.vus,
        features: this.features,
        samples: this.samplers?.measured ?? [],
      });
      for (const line of validityLines(v)) this.mon(line);
      return v;
    } catch (e) {
      this.mon(`Validity verdict not computed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  /** The result's failover fields: errors and retries by class, first-try commits, the disruptions, what the run survived (whole run). */
  private faultFields() {
    const f = this.faults.totals();
    const tot = this.counters.totals();
    const monitorReconnects = this.monitor.reconnects?.() ?? 0;
    return {
      errors: f.errors,
      retries: f.retries,
      firstTryCommits: tot.ops - f.retriedCommits,
      disruptions: this.samplers?.disruptions.list ?? [],
      monitorReconnects,
      survived: survivedLine(f, monitorReconnects),
    };
  }

  private async endEarly(): Promise<'stopped'> {
    this.watch?.end();
    await this.stopVus(STOP_GRACE_MS);
    this.samplers!.stop();
    this.throwFailure();
    // A companion that failed (a raised query error) ended the window: the run fails with its error.
    const companionFailed = this.companion?.failure();
    if (companionFailed) throw companionFailed;
    const aborted = this.watch?.verdict;
    if (aborted) {
      // The thresholds as judged on the window up to the abort: the engine stores them as the job's verdict.
      this.env.ctx.runningVerdict = aborted.results;
      throw this.watch!.error();
    }
    if (!this.env.stop.requested) {
      const f = this.counters.perVu().filter((v) => v.state === 'failed').length;
      throw new SledgeError('SLEDGE_E_DB', f ? `all virtual users ended before the measured window ended (${f} failed): see the output` : 'all virtual users ended before the measured window ended', {});
    }
    this.mon('Run stopped before the end of the measured window: no result');
    this.env.ctx.output(0, 'Vuser 1:FINISHED SUCCESS');
    return 'stopped';
  }

  /** Whatever way the run ended: timers off, threads ended, the VU grid final, the monitor closed. */
  async close(): Promise<void> {
    this.watch?.end();
    await this.companion?.close();
    this.samplers?.stop();
    await this.steps?.close();
    await this.pool.abort();
    // A run that ended on an error (the monitor lost, a VU thread crashed) leaves no VU "running" in its record.
    if (this.gridDue && !this.finalGrid) this.finalVus();
    await this.monitor.close();
  }
}
