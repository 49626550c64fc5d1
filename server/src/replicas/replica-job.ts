import { SledgeError } from '@sledge/protocol';
import { loadDriver } from '../shared/drivers.js';
import { RUN_ABORT, allocShared, type SharedBlocks } from '../shared/layout.js';
import type { LogLine, VuAssignment, VuProfile, VuWorkerData } from '../shared/messages.js';
import { toPairs, type SparseLike } from '../shared/sparse-hist.js';
import { readSlices } from '../shared/vu-slices.js';
import { SH_ACTIVE } from '../shared/shape-layout.js';
import { VuPool } from '../runner/vu-pool.js';
import { workloadRunner } from '../workloads/index.js';
import type { Frame, HistByOp, PrepareRequest, ProfileWire } from './wire.js';

/** Grace for the VU threads after an abort before they are terminated. */
const ABORT_GRACE_MS = 2000;

/**
 * One job's VUs on a replica: the same VU worker threads as a local run,
 * over shared blocks of its own (local indexes 0..n-1, the run's VU
 * positions), recording latency exactly. Every second it publishes its VUs'
 * counters, states, faults and client ASH, the second's latency and the
 * output lines; at the end the measured-window profiles, then `done`.
 */
export class ReplicaJob {
  private pool!: VuPool;
  private shared!: SharedBlocks;
  private ops: readonly string[] = [];
  private lines: LogLine[] = [];
  private ticker: NodeJS.Timeout | null = null;
  private reason: 'ended' | 'aborted' | 'primary-lost' = 'ended';
  private finished = false;
  /** Resolves once `done` has been published. */
  readonly ended: Promise<void>;
  private resolveEnded!: () => void;

  constructor(
    readonly req: PrepareRequest,
    private readonly publish: (f: Frame) => void,
    private readonly cores: number,
  ) {
    this.ended = new Promise((r) => (this.resolveEnded = r));
  }

  get jobId(): string {
    return this.req.jobId;
  }

  /** Load the driver, choose the loop, start the VU threads (they wait for go). Returns the loop's line. */
  async prepare(): Promise<string> {
    const { req } = this;
    const spec = workloadRunner(req.workload).vuSpec;
    if (!spec) throw new SledgeError('SLEDGE_E_VALIDATION', `workload ${req.workload} has no VU runner on this replica`, { field: 'workload' });
    const driver = await loadDriver(req.target.engine);
    const probe = await driver.probe();
    if (!probe.available) throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${req.target.engine} client library does not load on this replica: ${probe.reason ?? 'unknown reason'}`, { field: 'target.engine' });
    this.ops = (spec.workload.forOptions ? spec.workload.forOptions(req.options) : spec.workload).operations;
    const n = req.vus.length;
    const loop = spec.native
      ? spec.native.choose(req.vuLoop, driver, req.target, req.options)
      : { loop: 'typescript' as const, line: `Virtual users run in JavaScript (the ${spec.workload.name} workload has no native VU loop)` };
    const features = driver.features(req.target);
    const plan = req.plan;
    const workers = loop.loop === 'native' ? Math.max(1, Math.min(n, plan.workers || 1)) : features.asyncSessions ? Math.max(1, Math.min(n, plan.workers || this.cores)) : n;
    this.shared = allocShared(n, this.ops.length, 0);
    // Step loads: no VU runs before the primary starts the first step.
    if (plan.steps) Atomics.store(new Int32Array(this.shared.shape), SH_ACTIVE, 0);
    this.pool = new VuPool(this.shared.control, new Int32Array(this.shared.states), { output: (lines) => this.lines.push(...lines) }, true);
    const groups: VuAssignment[][] = Array.from({ length: workers }, () => []);
    req.vus.forEach((a, i) => groups[i % workers]!.push({ index: i, position: a.position, startDelayMs: a.startDelayMs }));
    const native = loop.loop === 'native' ? spec.native?.host : undefined;
    this.pool.start(
      groups.map(
        (vus): VuWorkerData => ({
          kind: 'vu',
          loop: loop.loop,
          workload: spec.module,
          ...(native ? { native } : {}),
          engine: req.target.engine,
          target: req.target,
          seed: req.seed,
          options: req.options,
          params: req.params,
          // The threads' blocks hold this replica's VUs only; positions and activeVus stay the run's.
          plan: { ...plan, vus: n },
          activeVus: plan.vus,
          vus,
          ...(req.sessionTag ? { sessionTag: req.sessionTag } : {}),
          shared: this.shared,
          exactLatency: true,
        }),
      ),
    );
    void Promise.race([this.pool.allReady, this.pool.allDone]).then(() => {
      if (!this.finished) this.publish({ t: 'ready', loop: loop.line });
    });
    void this.pool.allDone.then(() => this.finish());
    return `${n} VU(s) on ${workers} worker thread(s) of replica; ${loop.line}`;
  }

  go(): void {
    this.pool.go();
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  /** Step loads: of the run's VUs, those with a global index below n may run; here, the ones of ours below it (a prefix: ours are in index order). */
  active(n: number): void {
    const local = this.req.vus.filter((a) => a.index < n).length;
    const shape = new Int32Array(this.shared.shape);
    Atomics.store(shape, SH_ACTIVE, local);
    Atomics.notify(shape, SH_ACTIVE);
  }

  phase(p: number): void {
    this.pool.setPhase(p);
  }

  run(v: number): void {
    if (v === RUN_ABORT) this.abort('aborted');
    else this.pool.setRun(v);
  }

  /** Abort the VUs now (the primary asked, or it restarted or went silent). */
  abort(reason: 'aborted' | 'primary-lost'): void {
    if (this.finished) return;
    this.reason = reason;
    this.pool.setRun(RUN_ABORT);
    void this.pool.waitWorkers(ABORT_GRACE_MS);
  }

  private tick(): void {
    const hist: HistByOp = {};
    for (const op of this.ops) {
      const h = this.pool.exactInterval[op];
      if (h && h.count > 0) {
        hist[op] = toPairs(h);
        h.reset();
      }
    }
    const lines = this.lines;
    this.lines = [];
    this.publish({ t: 'tick', ts: Date.now(), slices: readSlices(this.shared, this.req.vus.length, this.ops.length), hist, lines });
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.ticker) clearInterval(this.ticker);
    const n = this.req.vus.length;
    this.pool.settleStates(n);
    this.tick();
    if (this.pool.failure) this.publish({ t: 'fatal', error: this.pool.failure });
    this.publish({ t: 'profile', vus: this.pool.profiles.map(profileWire) });
    this.publish({ t: 'done', reason: this.reason });
    this.resolveEnded();
  }
}

/** A profile whose histograms are SparseHists (cloned from a worker) in wire form. */
function profileWire(p: VuProfile): ProfileWire {
  const perType: ProfileWire['perType'] = {};
  for (const [op, x] of Object.entries(p.perType)) if (x) perType[op] = { pairs: toPairs(x.hist as unknown as SparseLike), totalNs: x.totalNs };
  return { position: p.position, elapsedMs: p.elapsedMs, perType };
}

