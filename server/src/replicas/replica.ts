import { randomUUID } from 'node:crypto';
import { availableParallelism, hostname } from 'node:os';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { ENGINES, SledgeError } from '@sledge/protocol';
import { REPLICA_NAME_PATTERN } from '@sledge/protocol';
import { loadDriver } from '../shared/drivers.js';
import { CpuMeter, busyPct, systemInfo } from './cpu.js';
import { VERSION } from '../version.js';
import { DEFAULT_PREFIX, connectNats, publicUrl, type NatsSettings } from './nats-conn.js';
import { ReplicaJob, failureInfo } from './replica-job.js';
import { HEARTBEAT_MS, decode, encode, subjects, type Announce, type ControlReply, type ControlRequest, type Frame, type PrimaryBeat, type Subjects } from './wire.js';

/** A replica running a job stops its VUs when its primary has been silent this long. */
export const DEFAULT_PRIMARY_LOSS_MS = 5000;

export interface ReplicaOptions {
  nats: NatsSettings;
  /** Default: the host name. */
  name?: string;
  log?: (msg: string) => void;
  primaryLossMs?: number;
}

/**
 * `sledge replica`: joins a primary over NATS, heartbeats (name, version,
 * cores, drivers, CPU), answers the primary's control requests and runs the
 * VUs a run places on it (ReplicaJob), publishing their frames to JetStream.
 * One job at a time. It stops a job's VUs within seconds when the job's
 * primary restarts (a new boot id) or goes silent: no orphaned load.
 */
export class Replica {
  private readonly timers: NodeJS.Timeout[] = [];
  private job: ReplicaJob | null = null;
  private drivers: string[] = [];
  private primary: { bootId: string; seenAt: number } | null = null;
  private readonly cpu = new CpuMeter();
  private readonly system = systemInfo();
  private procMark = { proc: process.cpuUsage(), at: performance.now() };
  private publishing: Promise<unknown> = Promise.resolve();
  readonly bootId = randomUUID();
  private readonly subj: Subjects;
  private readonly log: (msg: string) => void;
  private closing = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    readonly name: string,
    private readonly opts: ReplicaOptions,
  ) {
    this.subj = subjects(opts.nats.prefix ?? DEFAULT_PREFIX);
    this.log = opts.log ?? (() => undefined);
  }

  static async start(opts: ReplicaOptions): Promise<Replica> {
    const name = opts.name ?? hostname().split('.')[0]!.replace(/[^A-Za-z0-9_-]/g, '-');
    if (!new RegExp(REPLICA_NAME_PATTERN).test(name)) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `replica name ${JSON.stringify(name)}: use letters, digits, - and _ (at most 63), starting with a letter or digit`, { field: 'name' });
    }
    const nc = await connectNats(opts.nats, `sledge-replica ${name}`);
    const r = new Replica(nc, jetstream(nc), name, opts);
    await r.probeDrivers();
    r.listen();
    r.log(`replica ${name} joined ${publicUrl(opts.nats.url)} (Sledge ${VERSION}, ${availableParallelism()} cores, drivers: ${r.drivers.join(', ') || 'none'})`);
    return r;
  }

  private async probeDrivers(): Promise<void> {
    const ok = await Promise.all(
      ENGINES.map(async (e) => {
        try {
          return (await (await loadDriver(e)).probe()).available ? e : null;
        } catch {
          return null;
        }
      }),
    );
    this.drivers = ok.filter((e): e is (typeof ENGINES)[number] => e !== null);
  }

  private announce(): Announce {
    const now = { proc: process.cpuUsage(), at: performance.now() };
    const wallUs = (now.at - this.procMark.at) * 1000;
    const procUs = now.proc.user - this.procMark.proc.user + (now.proc.system - this.procMark.proc.system);
    const cpu = this.cpu.sample();
    const a: Announce = {
      name: this.name,
      version: VERSION,
      host: hostname(),
      cores: availableParallelism(),
      drivers: this.drivers,
      jobId: this.job?.jobId ?? null,
      cpuPct: busyPct(cpu),
      processCpuPct: wallUs > 0 ? Math.round((procUs / wallUs) * 1000) / 10 : null,
      bootId: this.bootId,
      system: this.system,
      cpu,
    };
    this.procMark = now;
    return a;
  }

  private heartbeat(): void {
    if (!this.nc.isClosed()) this.nc.publish(this.subj.heartbeat(this.name), encode(this.announce()));
  }

  private listen(): void {
    this.nc.subscribe(this.subj.control(this.name), { callback: (err, m) => (err ? undefined : void this.onControl(m)) });
    this.nc.subscribe(this.subj.discover, { callback: () => this.heartbeat() });
    this.nc.subscribe(this.subj.primary, {
      callback: (err, m) => {
        if (err) return;
        try {
          const b = decode<PrimaryBeat>(m.data);
          this.primary = { bootId: b.bootId, seenAt: Date.now() };
          const job = this.job;
          if (job && b.bootId !== job.req.primaryBootId) this.dropJob(job, `its primary restarted (job ${job.jobId} was interrupted there)`);
        } catch {
          // not one of ours
        }
      },
    });
    this.heartbeat();
    this.timers.push(
      setInterval(() => this.heartbeat(), HEARTBEAT_MS),
      setInterval(() => {
        const job = this.job;
        const silent = this.primary ? Date.now() - this.primary.seenAt : Infinity;
        if (job && silent > (this.opts.primaryLossMs ?? DEFAULT_PRIMARY_LOSS_MS)) this.dropJob(job, `its primary has been silent for ${Math.round(silent / 1000)} s`);
      }, 500),
    );
  }

  private dropJob(job: ReplicaJob, why: string): void {
    this.log(`stopping the VUs of job ${job.jobId}: ${why}`);
    job.abort('primary-lost');
  }

  /** Frames of the current job, in order (each published after the previous one's ack). */
  private publisher(jobId: string): (f: Frame) => void {
    const subject = this.subj.frames(jobId, this.name);
    return (f) => {
      this.publishing = this.publishing.then(() => this.js.publish(subject, encode(f))).catch((e: unknown) => this.log(`a frame of job ${jobId} was not stored: ${e instanceof Error ? e.message : String(e)}`));
    };
  }

  private async onControl(m: Msg): Promise<void> {
    let reply: ControlReply;
    try {
      reply = { ok: true, ...(await this.handle(decode<ControlRequest>(m.data))) };
    } catch (e) {
      reply = { ok: false, error: failureInfo(e) };
    }
    m.respond(encode(reply));
  }

  private async handle(req: ControlRequest): Promise<{ line?: string }> {
    if (req.op === 'prepare') {
      if (this.closing) throw new SledgeError('SLEDGE_E_CONFLICT', 'this replica is shutting down');
      if (this.job) throw new SledgeError('SLEDGE_E_CONFLICT', `this replica runs job ${this.job.jobId}`);
      const job = new ReplicaJob(req, this.publisher(req.jobId), availableParallelism());
      this.job = job;
      // The prepare request is the primary speaking: a replica that joined between two of its beats
      // would otherwise find it "silent for Infinity s" and drop the job at once.
      this.primary = { bootId: req.primaryBootId, seenAt: Date.now() };
      void job.ended.then(() => {
        if (this.job === job) this.job = null;
        this.heartbeat();
        this.log(`job ${job.jobId}: VUs ended`);
      });
      try {
        const line = await job.prepare();
        this.log(`job ${req.jobId}: ${req.vus.length} VU(s) on ${req.target.engine}`);
        this.heartbeat();
        return { line };
      } catch (e) {
        if (this.job === job) this.job = null;
        throw e;
      }
    }
    const job = this.job;
    if (!job || job.jobId !== req.jobId) throw new SledgeError('SLEDGE_E_NOT_FOUND', `this replica runs no VUs of job ${req.jobId}`);
    if (req.op === 'go') job.go();
    else if (req.op === 'phase') job.phase(req.phase);
    else if (req.op === 'active') job.active(req.vus);
    else job.run(req.run);
    return {};
  }

  /** Resolves when the NATS connection ends for good. */
  closed(): Promise<void | Error> {
    return this.nc.closed();
  }

  /** Stop: abort the job's VUs (its frames are published), then leave NATS. */
  async close(): Promise<void> {
    this.closing = true;
    for (const t of this.timers) clearInterval(t);
    const job = this.job;
    if (job) {
      job.abort('aborted');
      await Promise.race([job.ended, new Promise((r) => setTimeout(r, 5000))]);
    }
    await this.publishing;
    await this.nc.drain().catch(() => this.nc.close());
  }
}
