import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { SledgeError, type ErrorInfo, type Placement, type ReplicaRunFields } from '@sledge/protocol';
import { KINDS, K_COMMIT, K_ROLLBACK, RUN_ABORT, RUN_STOP, VU_STATE } from '../shared/layout.js';
import type { VuAssignment, VuProfile } from '../shared/messages.js';
import { pairsToHistogram, recordPairs } from '../shared/sparse-hist.js';
import { writeSlices } from '../shared/vu-slices.js';
import type { RemoteSink, RemoteStart, RemoteVus } from '../runner/vu-host.js';
import { settleVuStates } from '../runner/vu-pool.js';
import type { ReplicaHub } from './hub.js';
import { planPlacement } from './placement.js';
import type { Frame } from './wire.js';

/** Deadline of a control request during a run (stop must reach every replica within 2 s). */
const CONTROL_MS = 1500;
/** Deadline of prepare: the replica loads drivers and starts its threads. */
const PREPARE_MS = 30_000;

interface Group {
  name: string;
  /** Global VU indexes, in the replica's slice order. */
  indexes: number[];
  version: string;
  ready: boolean;
  done: boolean;
  lostAt?: number;
  windowStart: number;
  windowEnd: number | null;
}

/**
 * A run's VUs on replicas (the primary's side). Control goes to each replica
 * as a NATS request with a deadline; its frames come back from JetStream and
 * land in the run's shared blocks (counters, states, faults, client ASH at
 * the VUs' global indexes), its latency in the interval histograms and its
 * window profiles in `profiles`, exactly as recorded. A replica that stops
 * heartbeating is lost: the run goes on with the others; what it had done
 * still counts, and its VUs end as failed.
 */
export class ReplicaVus implements RemoteVus {
  readonly profiles: VuProfile[] = [];
  readonly interval: Partial<Record<string, RecordableHistogram>> = {};
  failure: ErrorInfo | null = null;
  readonly allReady: Promise<void>;
  readonly allDone: Promise<void>;
  private resolveReady!: () => void;
  private resolveDone!: () => void;
  private groups = new Map<string, Group>();
  private frames: { stop: () => Promise<void> } | null = null;
  private offLost: (() => void) | null = null;
  private jobId = '';
  private totalVus = 0;
  private droppedFrames = 0;
  private closed = false;

  constructor(
    private readonly hub: ReplicaHub,
    private readonly placement: Placement,
    private readonly sink: RemoteSink,
  ) {
    this.allReady = new Promise((r) => (this.resolveReady = r));
    this.allDone = new Promise((r) => (this.resolveDone = r));
  }

  async start(run: RemoteStart): Promise<string[]> {
    const { hub } = this;
    if (!hub.authenticated) {
      throw new SledgeError(
        'SLEDGE_E_VALIDATION',
        'the connection to NATS does not authenticate, and the run would send the target\'s credentials to replicas over it: give SLEDGE_NATS_TOKEN (or SLEDGE_NATS_CREDS, SLEDGE_NATS_USER/PASSWORD, a TLS client certificate) and run NATS with authentication',
        { field: 'placement' },
      );
    }
    const shares = planPlacement(this.placement, run.plan.vus, run.target.engine, hub.list());
    const versions = new Map(hub.list().map((r) => [r.name, r.version]));
    // The replicas' identities as of now: frames count only when these signed them, and each beat lists them until they end.
    const peers = hub.place(run.jobId, shares.map((s) => s.name));
    this.jobId = run.jobId;
    this.totalVus = run.plan.vus;
    for (const s of shares) this.groups.set(s.name, { name: s.name, indexes: s.indexes, version: versions.get(s.name) ?? '', ready: false, done: false, windowStart: 0, windowEnd: null });
    this.offLost = hub.onLost((name, at) => this.lost(name, at));
    this.frames = await hub.frames(run.jobId, peers, (name, f) => this.onFrame(name, f), (subject) => this.dropped(subject));
    const byIndex = new Map(run.vus.map((a) => [a.index, a]));
    const lines = await Promise.all(
      shares.map(async (s) => {
        const vus: VuAssignment[] = s.indexes.map((i) => byIndex.get(i)!);
        const { vus: _all, ...rest } = run;
        const line = await hub.control(s.name, { op: 'prepare', ...rest, vus }, PREPARE_MS);
        return `replica ${s.name}: VUs ${vus[0]!.position}-${vus[vus.length - 1]!.position}; ${line ?? ''}`;
      }),
    );
    return [`${run.plan.vus} VU(s) on ${shares.length} replica(s): ${shares.map((s) => `${s.name} ${s.indexes.length}`).join(', ')}`, ...lines];
  }

  /** A frame on this job's subjects that the replica placed on it did not sign for it (a forgery, a replay): said once, counted. */
  private dropped(subject: string): void {
    if (this.droppedFrames++ === 0) this.sink.mon(`Dropped a frame on ${subject}: not signed by the replica this job placed there (or replayed); later ones are counted`);
  }

  private onFrame(name: string, f: Frame): void {
    const g = this.groups.get(name);
    if (!g || g.lostAt !== undefined || g.done) return;
    switch (f.t) {
      case 'ready':
        g.ready = true;
        if ([...this.groups.values()].every((x) => x.ready || x.lostAt !== undefined)) this.resolveReady();
        break;
      case 'tick':
        writeSlices(this.sink.shared, this.totalVus, this.sink.ops.length, g.indexes, f.slices);
        for (const [op, pairs] of Object.entries(f.hist)) recordPairs((this.interval[op] ??= createHistogram()), pairs);
        if (f.lines.length) this.sink.output(f.lines);
        break;
      case 'profile':
        for (const p of f.vus) {
          const perType: VuProfile['perType'] = {};
          for (const [op, x] of Object.entries(p.perType)) perType[op] = { hist: pairsToHistogram(x.pairs), totalNs: x.totalNs };
          this.profiles.push({ position: p.position, elapsedMs: p.elapsedMs, perType });
        }
        break;
      case 'fatal':
        this.failure ??= f.error;
        this.setRun(RUN_ABORT);
        break;
      case 'done':
        if (f.reason === 'primary-lost') this.sink.mon(`Replica ${name} stopped its VUs: it lost this server`);
        g.done = true;
        this.hub.release(this.jobId, name);
        this.checkDone();
        break;
    }
  }

  private checkDone(): void {
    if ([...this.groups.values()].every((g) => g.done || g.lostAt !== undefined)) {
      this.resolveReady();
      this.resolveDone();
    }
  }

  private lost(name: string, at: number): void {
    const g = this.groups.get(name);
    if (!g || g.done || g.lostAt !== undefined) return;
    g.lostAt = at;
    // Its VUs are written off: should the replica come back still running them, the beat no longer lists them and it stops.
    this.hub.release(this.jobId, name);
    const states = new Int32Array(this.sink.shared.states);
    for (const i of g.indexes) Atomics.store(states, i, VU_STATE.failed);
    const positions = g.indexes.map((i) => i + 2);
    this.sink.mon(
      `Replica ${name} lost at ${new Date(at).toISOString()} (no heartbeat for ${this.hub.lossMs / 1000} s): its ${positions.length} VU(s) ${positions[0]}-${positions[positions.length - 1]} count what they had done; the run goes on with the other replicas`,
    );
    if ([...this.groups.values()].every((x) => x.ready || x.lostAt !== undefined)) this.resolveReady();
    this.checkDone();
  }

  private live(): Group[] {
    return [...this.groups.values()].filter((g) => !g.done && g.lostAt === undefined);
  }

  private send(op: 'go' | 'phase' | 'run' | 'active', extra: Record<string, number>): Promise<unknown> {
    return Promise.all(
      this.live().map((g) =>
        this.hub.control(g.name, { op, jobId: this.jobId, ...extra } as never, CONTROL_MS).catch((e: unknown) => {
          this.sink.mon(`Replica ${g.name} did not take "${op}": ${e instanceof Error ? e.message : String(e)}`);
        }),
      ),
    );
  }

  go(): void {
    void this.send('go', {});
  }

  setPhase(phase: number): void {
    void this.send('phase', { phase });
  }

  setRun(run: number): void {
    void this.send('run', { run });
  }

  setActive(vus: number): void {
    void this.send('active', { vus });
  }

  /** Ask every replica to stop its VUs; those that have not ended after graceMs are aborted, and after that written off. */
  async stop(graceMs: number): Promise<void> {
    this.setRun(RUN_STOP);
    if (await this.doneWithin(graceMs + CONTROL_MS)) return;
    this.setRun(RUN_ABORT);
    if (await this.doneWithin(3000)) return;
    for (const g of this.live()) this.lost(g.name, Date.now());
  }

  private async doneWithin(ms: number): Promise<boolean> {
    let t: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((r) => (t = setTimeout(() => r(false), ms)));
    const ok = await Promise.race([this.allDone.then(() => true), timeout]);
    clearTimeout(t);
    return ok;
  }

  settleStates(vus: number): void {
    settleVuStates(new Int32Array(this.sink.shared.states), vus);
  }

  /** Abort what still runs and stop reading frames (the run's end, whatever way it ended). */
  async abort(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.live().length && this.groups.size) {
      this.setRun(RUN_ABORT);
      await this.doneWithin(3000);
    }
    this.offLost?.();
    await this.frames?.stop().catch(() => undefined);
    if (this.droppedFrames > 1) this.sink.mon(`${this.droppedFrames} frames on this job's subjects were dropped: not signed by the replica this job placed there (or replayed)`);
    this.hub.release(this.jobId);
  }

  private clientOps(g: Group): number {
    const c = new Int32Array(this.sink.shared.counters);
    const per = this.sink.ops.length * KINDS;
    let n = 0;
    for (const i of g.indexes) for (let op = 0; op < this.sink.ops.length; op++) n += Atomics.load(c, i * per + op * KINDS + K_COMMIT) + Atomics.load(c, i * per + op * KINDS + K_ROLLBACK);
    return n;
  }

  markWindow(which: 'start' | 'end'): void {
    for (const g of this.groups.values()) {
      if (which === 'start') g.windowStart = this.clientOps(g);
      else g.windowEnd = this.clientOps(g);
    }
  }

  report(seconds: number): { replicas: ReplicaRunFields[]; vusFinished: number } {
    const states = new Int32Array(this.sink.shared.states);
    let vusFinished = 0;
    const replicas = [...this.groups.values()].map((g) => {
      const transactions = (g.windowEnd ?? this.clientOps(g)) - g.windowStart;
      const finishedVus = g.indexes.filter((i) => Atomics.load(states, i) === VU_STATE.finished).length;
      vusFinished += finishedVus;
      return {
        name: g.name,
        vus: g.indexes.map((i) => i + 2),
        transactions,
        clientTpm: seconds > 0 ? Math.round((transactions / seconds) * 60) : 0,
        finishedVus,
        ...(g.lostAt !== undefined ? { lostAt: g.lostAt } : {}),
        ...(g.version ? { version: g.version } : {}),
      };
    });
    return { replicas, vusFinished };
  }
}

/** The engine's PlaceVus for a server with a replica hub. */
export const placeOnReplicas =
  (hub: ReplicaHub) =>
  (placement: Placement, sink: RemoteSink): RemoteVus =>
    new ReplicaVus(hub, placement, sink);
