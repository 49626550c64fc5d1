/**
 * Simulated replicas: N fake `sledge replica`s speaking the real wire
 * protocol through the real ReplicaLink (signed heartbeats, sealed control
 * requests and signed replies, signed JetStream frames), so
 * that a test or the bench can measure what one primary does to aggregate
 * many replicas without running N x VUs against a database.
 *
 * Each fake replica has its own NATS connection, heartbeats every second with
 * a realistic Announce (machine CPU sample included), answers prepare / go /
 * phase / active / run like a real one,
 * and after go publishes one tick per second with the real layout and size:
 * counters, faults, states and client ASH for its VUs (counters grow at
 * `txPerVu` transactions per second per VU, in the TPROC-C mix), the second's
 * latency as value/count pairs (~`distinct` values per operation), a few
 * output lines; at stop a final tick, a profile frame (one window profile per
 * VU) and done. It keeps what it sent, and reports it per job.
 *
 * Exactness: a replica's window count on the primary is read from the last
 * tick the primary applied. So that the comparison does not depend on a race
 * between a tick and the window's end, simulated VUs stop transacting
 * `quietTailMs` before the window's planned end (ticks go on, unchanged): the
 * primary then counts exactly what they did if it applies every tick within
 * that tail. Runs use rampup 0 (the window starts before the first tick).
 *
 * Run it in a child process (`startSimProcess`) so that its CPU is not the
 * primary's: `vite-node replica-sim.ts` with SLEDGE_SIM_CHILD=1 and the
 * options as JSON in SLEDGE_SIM; it prints JSON lines: {event:'joined'}, then one
 * {event:'job', report} per job once every replica of the job sent done.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { DEFAULT_MIX, SledgeError, TX_TYPES, type CpuLine, type CpuSample } from '@sledge/protocol';
import type { Announce, ControlRequest, Frame, PrepareRequest, ProfileWire } from '@sledge/server/replicas/wire';
import { ReplicaLink, type LinkJob, type LinkOwner } from '@sledge/server/replicas/link';
import { ASH_EXEC_US, ASH_WAIT_US, FV_SLOTS, F_SLOTS, KINDS, K_COMMIT, K_ROLLBACK, PHASE_DONE, PHASE_MEASURING, RUN_ABORT, VU_STATE } from '@sledge/server/shared/layout';
import { VERSION } from '@sledge/server/version';

export interface SimOptions {
  url: string;
  token: string;
  /** Replica names: `${namePrefix}001` ... */
  replicas: number;
  namePrefix?: string;
  /** Transactions per second per VU (default 500). */
  txPerVu?: number;
  /** Distinct latency values per operation in a second's pairs (default 150). */
  distinct?: number;
  /** Output lines per replica per tick besides each VU's RUNNING / FINISHED lines (default 1). */
  linesPerTick?: number;
  /** VUs stop transacting this long before the window's planned end (default 2000). */
  quietTailMs?: number;
  prefix?: string;
}

/** What one replica did and sent for one job. */
export interface SimReplicaReport {
  name: string;
  vus: number;
  /** Transactions (commits + rollbacks) its VUs made in the measured window, and in the whole run. */
  windowTransactions: number;
  totalTransactions: number;
  /** Latency values sent in ticks, per operation (all ticks). */
  tickCalls: Record<string, number>;
  ticks: number;
  tickBytes: number;
  /** Its VUs' window profiles merged: value/count pairs and total ns per operation. */
  profile: Record<string, { pairs: number[]; totalNs: number }>;
}

export interface SimJobReport {
  jobId: string;
  replicas: SimReplicaReport[];
}

const OPS = TX_TYPES as readonly string[];
const MIX_TOTAL = TX_TYPES.reduce((a, t) => a + DEFAULT_MIX[t], 0);
/** Typical latency (µs) per operation: new order and delivery are the heavy ones. */
const BASE_US: Record<string, number> = { neworder: 2200, payment: 1100, delivery: 6500, stocklevel: 1800, orderstatus: 700 };

const CORES = 4;
const r1 = (x: number) => Math.round(x * 10) / 10;
/** A machine CPU sample as a replica sends with each heartbeat (per core and 'all'). */
function cpuSample(): CpuSample {
  const line = (cpu: string): CpuLine => {
    const usr = r1(15 + Math.random() * 30);
    const sys = r1(5 + Math.random() * 10);
    return { cpu, usr, sys, iowait: 0, irq: r1(Math.random()), soft: 0, steal: 0, idle: r1(Math.max(0, 100 - usr - sys - 1)) };
  };
  return { ts: Date.now(), cpus: [line('all'), ...Array.from({ length: CORES }, (_, i) => line(String(i)))], iops: 0, mbps: 0 };
}

const pickOp = (): number => {
  let r = Math.random() * MIX_TOTAL;
  for (let i = 0; i < TX_TYPES.length; i++) {
    r -= DEFAULT_MIX[TX_TYPES[i]!];
    if (r < 0) return i;
  }
  return 0;
};

const addCount = (m: Map<number, number>, v: number, c: number) => m.set(v, (m.get(v) ?? 0) + c);
const toPairs = (m: Map<number, number>): number[] => {
  const out: number[] = [];
  for (const [v, c] of m) out.push(v, c);
  return out;
};

interface SimVu {
  /** The run's global VU index (step loads: VUs below the active count run). */
  index: number;
  position: number;
  counters: Int32Array;
  ash: Int32Array;
  state: number;
  /** Window profile: value -> count, and total ns, per operation. */
  window: Map<number, number>[];
  windowNs: number[];
}

class SimJob {
  readonly vus: SimVu[];
  readonly ops = OPS.length;
  phase = 0;
  /** Step loads: the run's VUs with a global index below this may run. */
  active: number;
  transacting = false;
  quietAt = Infinity;
  windowStartedAt = 0;
  windowMs = 0;
  /** Counters as of the last tick published before the window started. */
  windowBase = 0;
  lastPublished = 0;
  tickCalls: Record<string, number> = {};
  ticks = 0;
  tickBytes = 0;
  ticker: NodeJS.Timeout | null = null;
  lastTickAt = 0;
  carry = 0;
  firstTick = true;
  ended = false;

  constructor(readonly req: PrepareRequest) {
    this.active = req.plan.vus;
    this.vus = req.vus.map((a) => ({
      index: a.index,
      position: a.position,
      counters: new Int32Array(this.ops * KINDS),
      ash: new Int32Array(2),
      state: VU_STATE.idle,
      window: OPS.map(() => new Map()),
      windowNs: OPS.map(() => 0),
    }));
  }

  total(): number {
    let n = 0;
    for (const v of this.vus) for (let op = 0; op < this.ops; op++) n += v.counters[op * KINDS + K_COMMIT]! + v.counters[op * KINDS + K_ROLLBACK]!;
    return n;
  }
}

/** One fake replica. */
class SimReplica implements LinkOwner {
  private current: SimJob | null = null;
  private jobBoot = '';
  private readonly link: ReplicaLink;
  private publishFrame: (f: Frame) => number = () => 0;

  constructor(
    readonly name: string,
    nc: NatsConnection,
    private readonly o: Required<Omit<SimOptions, 'url' | 'token' | 'replicas' | 'namePrefix'>>,
    private readonly onPrepare: (jobId: string) => void,
    private readonly onDone: (jobId: string, r: SimReplicaReport) => void,
  ) {
    this.link = new ReplicaLink(nc, jetstream(nc), name, this, { prefix: o.prefix, log: (m) => process.stderr.write(`replica-sim ${name}: ${m}\n`) });
  }

  start(): void {
    this.link.start();
  }

  announce(): Omit<Announce, 'name' | 'bootId' | 'jobId'> {
    return {
      version: VERSION,
      host: `${hostname()}-sim`,
      cores: CORES,
      drivers: ['sqlite', 'postgresql', 'mysql', 'mariadb'],
      cpuPct: 20 + Math.round(Math.random() * 300) / 10,
      processCpuPct: 10 + Math.round(Math.random() * 200) / 10,
      system: { hostname: `${hostname()}-${this.name}`, cpuModel: 'simulated (replica-sim)', cpuCount: CORES, memoryBytes: 8 * 1024 ** 3, os: 'Linux (simulated)', kernel: 'simulated' },
      cpu: cpuSample(),
    };
  }

  job(): LinkJob | null {
    return this.current ? { jobId: this.current.req.jobId, boot: this.jobBoot } : null;
  }

  drop(): void {
    if (this.current) this.finish(this.current, 'aborted');
  }

  control(req: ControlRequest, boot: string): { line?: string } {
    if (req.op === 'prepare') {
      if (this.current) throw new SledgeError('SLEDGE_E_CONFLICT', `this replica runs job ${this.current.req.jobId}`);
      if (req.workload !== 'tprocc') throw new SledgeError('SLEDGE_E_VALIDATION', `the simulator runs TPROC-C only, not ${req.workload}`);
      const job = new SimJob(req);
      this.current = job;
      this.jobBoot = boot;
      this.publishFrame = this.link.frames(req.jobId);
      this.onPrepare(req.jobId);
      this.link.heartbeat();
      // A real replica says ready once its VU threads loaded their driver.
      setTimeout(() => this.publish({ t: 'ready', loop: 'Virtual users simulated (replica-sim)' }), 20);
      return { line: `${req.vus.length} VU(s) simulated by replica-sim at ${this.o.txPerVu} tx/s each` };
    }
    // The link passes only requests for the running job of the primary that placed it.
    const job = this.current!;
    if (req.op === 'go') {
      for (const v of job.vus) v.state = VU_STATE.running;
      job.transacting = true;
      job.lastTickAt = performance.now();
      job.ticker = setInterval(() => this.tick(job), 1000);
    } else if (req.op === 'active') {
      job.active = req.vus;
    } else if (req.op === 'phase') {
      job.phase = req.phase;
      if (req.phase === PHASE_MEASURING) {
        job.windowStartedAt = performance.now();
        job.windowBase = job.lastPublished;
        job.quietAt = job.windowStartedAt + job.req.plan.durationMinutes * 60_000 - this.o.quietTailMs;
      } else if (req.phase === PHASE_DONE && job.windowStartedAt) {
        job.windowMs = performance.now() - job.windowStartedAt;
      }
    } else {
      this.finish(job, req.run === RUN_ABORT ? 'aborted' : 'ended');
    }
    return {};
  }

  /** The VUs' work since the last tick, then the tick frame. */
  private tick(job: SimJob): void {
    const now = performance.now();
    if (job.transacting && now >= job.quietAt) job.transacting = false;
    const hist: Record<string, number[]> = {};
    if (job.transacting) this.work(job, (now - job.lastTickAt) / 1000, hist);
    job.lastTickAt = now;
    const lines: { vu: number; text: string }[] = [];
    if (job.firstTick) for (const v of job.vus) lines.push({ vu: v.position, text: `Vuser ${v.position}:RUNNING` });
    job.firstTick = false;
    for (let i = 0; i < this.o.linesPerTick; i++) {
      const v = job.vus[i % job.vus.length]!;
      lines.push({ vu: v.position, text: `Vuser ${v.position}:${job.total()} transactions so far on ${this.name}` });
    }
    this.sendTick(job, hist, lines);
  }

  private work(job: SimJob, seconds: number, hist: Record<string, number[]>): void {
    const running = job.vus.filter((v) => v.index < job.active);
    if (running.length === 0) return;
    const want = running.length * this.o.txPerVu * seconds + job.carry;
    const n = Math.floor(want);
    job.carry = want - n;
    const measuring = job.phase === PHASE_MEASURING;
    // This second's latency values: ~distinct per operation around the operation's typical time.
    const pools = OPS.map((op) => Array.from({ length: this.o.distinct }, () => Math.max(50, Math.round(BASE_US[op]! * Math.exp((Math.random() - 0.5) * 1.2)))));
    const second = OPS.map(() => new Map<number, number>());
    for (let k = 0; k < n; k++) {
      const vu = running[k % running.length]!;
      const op = pickOp();
      const us = pools[op]![Math.floor(Math.random() * this.o.distinct)]!;
      const kind = op === 0 && Math.random() < 0.01 ? K_ROLLBACK : K_COMMIT;
      vu.counters[op * KINDS + kind]!++;
      vu.ash[ASH_EXEC_US] = (vu.ash[ASH_EXEC_US]! + Math.round(us * 0.3)) | 0;
      vu.ash[ASH_WAIT_US] = (vu.ash[ASH_WAIT_US]! + Math.round(us * 0.7)) | 0;
      addCount(second[op]!, us, 1);
      if (measuring) {
        addCount(vu.window[op]!, us, 1);
        vu.windowNs[op]! += us * 1000;
      }
    }
    OPS.forEach((op, i) => {
      if (second[i]!.size === 0) return;
      hist[op] = toPairs(second[i]!);
      job.tickCalls[op] = (job.tickCalls[op] ?? 0) + [...second[i]!.values()].reduce((a, c) => a + c, 0);
    });
  }

  private sendTick(job: SimJob, hist: Record<string, number[]>, lines: { vu: number; text: string }[]): void {
    const n = job.vus.length;
    const counters: number[] = [];
    for (const v of job.vus) counters.push(...v.counters);
    // Faults: [vu][op][F_SLOTS] then [vu][FV_SLOTS], none in a simulated run.
    const faults = new Array<number>(n * job.ops * F_SLOTS + n * FV_SLOTS).fill(0);
    const ash: number[] = [];
    for (const v of job.vus) ash.push(v.ash[0]!, v.ash[1]!);
    const f: Frame = { t: 'tick', ts: Date.now(), slices: { counters, faults, states: job.vus.map((v) => v.state), ash }, hist, lines };
    job.lastPublished = job.total();
    job.ticks++;
    job.tickBytes += this.publish(f);
  }

  private finish(job: SimJob, reason: 'ended' | 'aborted'): void {
    if (job.ended) return;
    job.ended = true;
    if (job.ticker) clearInterval(job.ticker);
    if (job.windowStartedAt && !job.windowMs) job.windowMs = performance.now() - job.windowStartedAt;
    for (const v of job.vus) v.state = VU_STATE.finished;
    this.sendTick(job, {}, job.vus.map((v) => ({ vu: v.position, text: `Vuser ${v.position}:FINISHED SUCCESS` })));
    const vus: ProfileWire[] = job.vus.map((v) => ({
      position: v.position,
      elapsedMs: Math.round(job.windowMs),
      perType: Object.fromEntries(OPS.flatMap((op, i) => (v.window[i]!.size ? [[op, { pairs: toPairs(v.window[i]!), totalNs: v.windowNs[i]! }]] : []))),
    }));
    this.publish({ t: 'profile', vus });
    this.publish({ t: 'done', reason });
    const profile: SimReplicaReport['profile'] = {};
    OPS.forEach((op, i) => {
      const m = new Map<number, number>();
      let ns = 0;
      for (const v of job.vus) {
        for (const [val, c] of v.window[i]!) addCount(m, val, c);
        ns += v.windowNs[i]!;
      }
      if (m.size) profile[op] = { pairs: toPairs(m), totalNs: ns };
    });
    const total = job.total();
    const report: SimReplicaReport = { name: this.name, vus: job.vus.length, windowTransactions: total - job.windowBase, totalTransactions: total, tickCalls: job.tickCalls, ticks: job.ticks, tickBytes: job.tickBytes, profile };
    void this.link.flushed().then(() => {
      if (this.current === job) this.current = null;
      this.link.heartbeat();
      this.onDone(job.req.jobId, report);
    });
  }

  /** Frames in order, signed, each after the previous one's ack (the real replica's publisher). Returns the frame's size. */
  private publish(f: Frame): number {
    return this.publishFrame(f);
  }

  async close(): Promise<void> {
    if (this.current?.ticker) clearInterval(this.current.ticker);
    await this.link.close();
  }
}

/** Start the fake replicas in this process; `onJob` gets each job's report once all its replicas are done. */
export async function runSim(opts: SimOptions, onJob: (r: SimJobReport) => void): Promise<{ names: string[]; close: () => Promise<void> }> {
  const o = { txPerVu: opts.txPerVu ?? 500, distinct: opts.distinct ?? 150, linesPerTick: opts.linesPerTick ?? 1, quietTailMs: opts.quietTailMs ?? 2000, prefix: opts.prefix ?? 'sledge' };
  const names = Array.from({ length: opts.replicas }, (_, i) => `${opts.namePrefix ?? 'sim'}${String(i + 1).padStart(3, '0')}`);
  const pending = new Map<string, SimReplicaReport[]>();
  const busy = new Map<string, Set<string>>();
  const reps: SimReplica[] = [];
  const onDone = (jobId: string, r: SimReplicaReport) => {
    const got = pending.get(jobId) ?? [];
    got.push(r);
    pending.set(jobId, got);
    const all = busy.get(jobId)!;
    all.delete(r.name);
    if (all.size === 0) {
      pending.delete(jobId);
      busy.delete(jobId);
      onJob({ jobId, replicas: got.sort((a, b) => a.name.localeCompare(b.name)) });
    }
  };
  for (const name of names) {
    const nc = await connect({ servers: opts.url, token: opts.token, name: `replica-sim ${name}` });
    // The replicas of a job, counted as they take its prepare (before any can be done).
    const onPrepare = (jobId: string) => void (busy.get(jobId) ?? busy.set(jobId, new Set()).get(jobId)!).add(name);
    const r = new SimReplica(name, nc, o, onPrepare, onDone);
    r.start();
    reps.push(r);
  }
  return { names, close: async () => void (await Promise.all(reps.map((r) => r.close()))) };
}

export interface SimProcess {
  proc: ChildProcess;
  names: string[];
  /** The report of a job, once every replica that took part sent done. */
  job: (jobId: string, timeoutMs?: number) => Promise<SimJobReport>;
  stop: () => Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));

/** The simulator in a child process (vite-node runs this file), so that the primary's CPU excludes it. */
export async function startSimProcess(opts: SimOptions): Promise<SimProcess> {
  const req = createRequire(createRequire(join(here, 'package.json')).resolve('vitest/package.json'));
  const viteNode = join(dirname(req.resolve('vite-node/package.json')), 'vite-node.mjs');
  const proc = spawn(process.execPath, [viteNode, join(here, 'replica-sim.ts')], { cwd: join(here, '..'), env: { ...process.env, SLEDGE_SIM_CHILD: '1', SLEDGE_SIM: JSON.stringify(opts) }, stdio: ['pipe', 'pipe', 'pipe'] });
  const reports = new Map<string, SimJobReport>();
  const waiters = new Map<string, (r: SimJobReport) => void>();
  let err = '';
  // A job's report is one line of megabytes: keep its chunks, search only the new one for the line's end.
  let pending: string[] = [];
  let names: string[] = [];
  let joined!: () => void;
  const joinedP = new Promise<void>((r) => (joined = r));
  proc.stderr!.on('data', (d: Buffer) => (err += d));
  proc.stdout!.setEncoding('utf8');
  proc.stdout!.on('data', (d: string) => {
    let s = d;
    let i;
    while ((i = s.indexOf('\n')) >= 0) {
      const line = pending.join('') + s.slice(0, i);
      pending = [];
      s = s.slice(i + 1);
      if (!line.startsWith('{')) continue;
      const ev = JSON.parse(line) as { event: string; names?: string[]; report?: SimJobReport };
      if (ev.event === 'joined') {
        names = ev.names!;
        joined();
      } else if (ev.event === 'job') {
        reports.set(ev.report!.jobId, ev.report!);
        waiters.get(ev.report!.jobId)?.(ev.report!);
      }
    }
    if (s) pending.push(s);
  });
  const exited = new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
  await Promise.race([joinedP, exited.then((c) => Promise.reject(new Error(`replica-sim exited (${c}): ${err}`)))]);
  return {
    proc,
    names,
    job: (jobId, timeoutMs = 30_000) =>
      reports.has(jobId)
        ? Promise.resolve(reports.get(jobId)!)
        : new Promise((resolve, reject) => {
            const t = setTimeout(() => reject(new Error(`replica-sim: no report of job ${jobId} within ${timeoutMs} ms; its log: ${err}`)), timeoutMs);
            waiters.set(jobId, (r) => (clearTimeout(t), resolve(r)));
          }),
    stop: async () => {
      proc.stdin!.end();
      await exited;
    },
  };
}

// The child-process entry: options from SLEDGE_SIM, reports as JSON lines, ends when stdin closes.
if (process.env['SLEDGE_SIM_CHILD'] === '1' && process.env['SLEDGE_SIM']) {
  const opts = JSON.parse(process.env['SLEDGE_SIM']) as SimOptions;
  delete process.env['SLEDGE_SIM_CHILD'];
  const sim = await runSim(opts, (report) => process.stdout.write(JSON.stringify({ event: 'job', report }) + '\n'));
  process.stdout.write(JSON.stringify({ event: 'joined', names: sim.names }) + '\n');
  process.stdin.resume();
  process.stdin.on('end', () => void sim.close().then(() => process.exit(0)));
}
