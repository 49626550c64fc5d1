import { availableParallelism, hostname } from 'node:os';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ENGINES, REPLICA_NAME_PATTERN, SledgeError } from '@sledge/protocol';
import { loadDriver } from '../shared/drivers.js';
import { CpuMeter, busyPct, systemInfo } from './cpu.js';
import { VERSION } from '../version.js';
import { publicUrl, type NatsSettings } from './nats-conn.js';
import { connectNats } from './nats-client.js';
import { ReplicaLink, type LinkJob, type LinkOwner } from './link.js';
import { ReplicaJob } from './replica-job.js';
import type { Announce, ControlRequest } from './wire.js';

export interface ReplicaOptions {
  nats: NatsSettings;
  /** Default: the host name. */
  name?: string;
  log?: (msg: string) => void;
  primaryLossMs?: number;
}

/**
 * `sledge replica`: joins a primary over NATS (ReplicaLink: its identity,
 * signed heartbeats with name, version, cores, drivers, CPU; the primary's
 * signed and sealed control requests) and runs the VUs a run places on it
 * (ReplicaJob), publishing their signed frames to JetStream. One job at a
 * time. It stops a job's VUs within seconds when the job's primary restarts
 * (a new boot id), goes silent or no longer lists the job: no orphaned load.
 */
export class Replica implements LinkOwner {
  private running: { job: ReplicaJob; boot: string } | null = null;
  private drivers: string[] = [];
  private readonly cpu = new CpuMeter();
  private readonly system = systemInfo();
  private procMark = { proc: process.cpuUsage(), at: performance.now() };
  private readonly link: ReplicaLink;
  private readonly log: (msg: string) => void;
  private closing = false;

  private constructor(
    private readonly nc: NatsConnection,
    readonly name: string,
    opts: ReplicaOptions,
  ) {
    this.log = opts.log ?? (() => undefined);
    this.link = new ReplicaLink(nc, jetstream(nc), name, this, {
      ...(opts.nats.prefix ? { prefix: opts.nats.prefix } : {}),
      ...(opts.primaryLossMs ? { primaryLossMs: opts.primaryLossMs } : {}),
      log: this.log,
    });
  }

  static async start(opts: ReplicaOptions): Promise<Replica> {
    const name = opts.name ?? hostname().split('.')[0]!.replace(/[^A-Za-z0-9_-]/g, '-');
    if (!new RegExp(REPLICA_NAME_PATTERN).test(name)) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `replica name ${JSON.stringify(name)}: use letters, digits, - and _ (at most 63), starting with a letter or digit`, { field: 'name' });
    }
    const nc = await connectNats(opts.nats, `sledge-replica ${name}`);
    const r = new Replica(nc, name, opts);
    await r.probeDrivers();
    r.link.start();
    r.log(`replica ${name} joined ${publicUrl(opts.nats.url)} (Sledge ${VERSION}, ${availableParallelism()} cores, drivers: ${r.drivers.join(', ') || 'none'}, key ${r.link.fp})`);
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

  announce(): Omit<Announce, 'name' | 'bootId' | 'jobId'> {
    const now = { proc: process.cpuUsage(), at: performance.now() };
    const wallUs = (now.at - this.procMark.at) * 1000;
    const procUs = now.proc.user - this.procMark.proc.user + (now.proc.system - this.procMark.proc.system);
    const cpu = this.cpu.sample();
    this.procMark = now;
    return {
      version: VERSION,
      host: hostname(),
      cores: availableParallelism(),
      drivers: this.drivers,
      cpuPct: busyPct(cpu),
      processCpuPct: wallUs > 0 ? Math.round((procUs / wallUs) * 1000) / 10 : null,
      system: this.system,
      cpu,
    };
  }

  job(): LinkJob | null {
    return this.running ? { jobId: this.running.job.jobId, boot: this.running.boot } : null;
  }

  drop(why: string): void {
    const job = this.running?.job;
    if (!job) return;
    this.log(`stopping the VUs of job ${job.jobId}: ${why}`);
    job.abort('primary-lost');
  }

  async control(req: ControlRequest, boot: string): Promise<{ line?: string }> {
    if (req.op === 'prepare') {
      if (this.closing) throw new SledgeError('SLEDGE_E_CONFLICT', 'this replica is shutting down');
      if (this.running) throw new SledgeError('SLEDGE_E_CONFLICT', `this replica runs job ${this.running.job.jobId}`);
      const job = new ReplicaJob(req, this.link.frames(req.jobId), availableParallelism());
      this.running = { job, boot };
      void job.ended.then(() => {
        if (this.running?.job === job) this.running = null;
        this.link.heartbeat();
        this.log(`job ${job.jobId}: VUs ended`);
      });
      try {
        const line = await job.prepare();
        this.log(`job ${req.jobId}: ${req.vus.length} VU(s) on ${req.target.engine}`);
        this.link.heartbeat();
        return { line };
      } catch (e) {
        if (this.running?.job === job) this.running = null;
        throw e;
      }
    }
    // The link passes only requests for the running job of the primary that placed it.
    const job = this.running!.job;
    if (req.op === 'go') job.go();
    else if (req.op === 'phase') job.phase(req.phase);
    else if (req.op === 'active') job.active(req.vus);
    else job.run(req.run);
    return {};
  }

  /** Resolves when the NATS connection ends for good, or with the refusal when a primary refused this replica before any accepted it (its name is held by a live replica). */
  closed(): Promise<void | Error> {
    return Promise.race([this.nc.closed(), this.link.refused]);
  }

  /** Stop: abort the job's VUs (their frames are published), then leave NATS. */
  async close(): Promise<void> {
    this.closing = true;
    const job = this.running?.job;
    if (job) {
      job.abort('aborted');
      await Promise.race([job.ended, new Promise((r) => setTimeout(r, 5000))]);
    }
    await this.link.close();
  }
}
