import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager, type ConsumerMessages, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { SledgeError, type ReplicaInfo, type ReplicaList } from '@sledge/protocol';
import { VERSION } from '../version.js';
import { RUN_ABORT } from '../shared/layout.js';
import type { AgentHub } from '../runner/samplers/agents.js';
import { DEFAULT_PREFIX, authenticates, connectNats, publicUrl, type NatsSettings } from './nats-conn.js';
import { HEARTBEAT_MS, decode, encode, subjects, type Announce, type ControlReply, type ControlRequest, type Frame, type PrimaryBeat, type Subjects } from './wire.js';

/** A replica that has not heartbeaten for this long is lost (its VUs' work so far still counts). */
export const DEFAULT_LOSS_MS = 5000;
/** Frames are kept this long in the stream (the primary applies them while the job runs; the job store keeps the result), and at most this much of them (the oldest go first). */
const FRAME_MAX_AGE_NS = 24 * 3600 * 1e9;
const FRAME_MAX_BYTES = 1024 ** 3;

interface Entry {
  a: Announce;
  /** Its id as a CPU agent (AgentHub) while it is not lost. */
  agentId?: number;
  joinedAt: number;
  lastSeenAt: number;
  lost: boolean;
}

export interface HubOptions {
  lossMs?: number;
  /** Replicas' CPU samples go here, as CPU agents named "replica <name>": jobs record them. */
  agents?: AgentHub;
  log?: (msg: string) => void;
}

/**
 * The primary's side of scale-out: the replicas that joined (heartbeats,
 * loss), control requests to one replica, and the frames of a job read back
 * from JetStream. The primary heartbeats too, with a boot id: a replica whose
 * job's primary restarted (another boot id) or went silent stops its VUs.
 */
export class ReplicaHub {
  readonly bootId = randomUUID();
  private readonly entries = new Map<string, Entry>();
  private readonly lostListeners = new Set<(name: string, at: number) => void>();
  private readonly timers: NodeJS.Timeout[] = [];
  private sub: Subscription | null = null;
  /** The job whose VUs run on replicas (primary heartbeats carry it). */
  jobId: string | null = null;
  readonly subjects: Subjects;
  readonly authenticated: boolean;
  readonly lossMs: number;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    private readonly settings: NatsSettings,
    private readonly opts: HubOptions,
  ) {
    this.subjects = subjects(settings.prefix ?? DEFAULT_PREFIX);
    this.authenticated = authenticates(settings);
    this.lossMs = opts.lossMs ?? DEFAULT_LOSS_MS;
  }

  static async open(settings: NatsSettings, opts: HubOptions = {}): Promise<ReplicaHub> {
    const nc = await connectNats(settings, `sledge-primary ${VERSION}`);
    try {
      const hub = new ReplicaHub(nc, jetstream(nc), settings, opts);
      await hub.ensureStream();
      hub.listen();
      return hub;
    } catch (e) {
      await nc.close();
      throw e;
    }
  }

  private async ensureStream(): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    const cfg = { name: this.subjects.stream, subjects: [this.subjects.framesAll], max_age: FRAME_MAX_AGE_NS, max_bytes: FRAME_MAX_BYTES };
    try {
      await jsm.streams.info(cfg.name);
    } catch {
      await jsm.streams.add(cfg);
    }
  }

  private listen(): void {
    this.sub = this.nc.subscribe(this.subjects.heartbeats, {
      callback: (err, m) => {
        if (err) return;
        try {
          this.seen(decode<Announce>(m.data));
        } catch {
          // not one of ours: ignore
        }
      },
    });
    const beat = () => this.nc.publish(this.subjects.primary, encode({ bootId: this.bootId, version: VERSION, jobId: this.jobId } satisfies PrimaryBeat));
    beat();
    this.nc.publish(this.subjects.discover, encode({ bootId: this.bootId }));
    this.timers.push(setInterval(beat, HEARTBEAT_MS), setInterval(() => this.sweep(), Math.min(500, this.lossMs / 4)));
  }

  private seen(a: Announce): void {
    const now = Date.now();
    const e = this.entries.get(a.name);
    if (!e || e.a.bootId !== a.bootId) {
      if (e && !e.lost) this.markLost(e, now);
      const entry: Entry = { a, joinedAt: now, lastSeenAt: now, lost: false };
      this.entries.set(a.name, entry);
      this.opts.log?.(`replica ${a.name} joined (${a.host}, ${a.cores} cores, Sledge ${a.version})`);
      this.cpuSample(entry);
      return;
    }
    if (e.lost) {
      // Back after a loss (a network partition, a stalled machine). The run wrote its VUs off: if they still run, stop them (no orphaned load).
      if (a.jobId) void this.control(a.name, { op: 'run', jobId: a.jobId, run: RUN_ABORT }, 2000).catch(() => undefined);
      e.lost = false;
      e.joinedAt = now;
      this.opts.log?.(`replica ${a.name} is back after a loss${a.jobId ? `; its VUs of job ${a.jobId} were written off and are told to stop` : ''}`);
    }
    e.a = a;
    e.lastSeenAt = now;
    this.cpuSample(e);
  }

  private cpuSample(e: Entry): void {
    const agents = this.opts.agents;
    if (!agents) return;
    e.agentId ??= agents.connect(`replica ${e.a.name}`, e.a.system);
    agents.sample(e.agentId, e.a.cpu);
  }

  private markLost(e: Entry, at: number): void {
    e.lost = true;
    if (e.agentId !== undefined) this.opts.agents?.disconnect(e.agentId);
    delete e.agentId;
    this.opts.log?.(`replica ${e.a.name} lost: no heartbeat since ${new Date(e.lastSeenAt).toISOString()}`);
    for (const l of this.lostListeners) l(e.a.name, at);
  }

  private sweep(): void {
    const now = Date.now();
    for (const e of this.entries.values()) if (!e.lost && now - e.lastSeenAt > this.lossMs) this.markLost(e, now);
  }

  /** Called with a replica's name when it stops heartbeating. Returns the unsubscribe. */
  onLost(l: (name: string, at: number) => void): () => void {
    this.lostListeners.add(l);
    return () => this.lostListeners.delete(l);
  }

  isLost(name: string): boolean {
    return this.entries.get(name)?.lost ?? true;
  }

  list(): ReplicaInfo[] {
    return [...this.entries.values()]
      .map(({ a, joinedAt, lastSeenAt, lost }) => ({
        name: a.name,
        version: a.version,
        versionMatch: a.version === VERSION,
        host: a.host,
        cores: a.cores,
        drivers: a.drivers,
        state: lost ? ('lost' as const) : a.jobId ? ('busy' as const) : ('ready' as const),
        jobId: a.jobId,
        cpuPct: a.cpuPct,
        processCpuPct: a.processCpuPct,
        joinedAt,
        lastSeenAt,
      }))
      .sort((x, y) => x.name.localeCompare(y.name));
  }

  describe(): ReplicaList {
    return { enabled: true, nats: publicUrl(this.settings.url), authenticated: this.authenticated, version: VERSION, now: Date.now(), replicas: this.list() };
  }

  /** A control request to one replica, with a deadline; its refusal or silence is a typed error. */
  async control(name: string, req: ControlRequest, timeoutMs = 5000): Promise<string | undefined> {
    let reply: ControlReply;
    try {
      const m = await this.nc.request(this.subjects.control(name), encode(req), { timeout: timeoutMs });
      reply = decode<ControlReply>(m.data);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new SledgeError('SLEDGE_E_TIMEOUT', `replica ${name} did not answer "${req.op}" within ${timeoutMs} ms (${msg})`, { cause: e });
    }
    if (!reply.ok) throw SledgeError.fromInfo({ ...reply.error, message: `replica ${name}: ${reply.error.message}` });
    return reply.line;
  }

  /** Read a job's frames from the start of the stream, in order, until stopped. */
  async frames(jobId: string, onFrame: (replica: string, f: Frame) => void): Promise<{ stop: () => Promise<void> }> {
    const consumer = await this.js.consumers.get(this.subjects.stream, { filter_subjects: this.subjects.framesOfJob(jobId) });
    const msgs: ConsumerMessages = await consumer.consume();
    const done = (async () => {
      for await (const m of msgs) {
        const replica = m.subject.slice(m.subject.lastIndexOf('.') + 1);
        try {
          onFrame(replica, m.json<Frame>());
        } catch (e) {
          this.opts.log?.(`a frame from replica ${replica} could not be applied: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    })();
    return {
      stop: async () => {
        await msgs.close();
        await done;
      },
    };
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.sub?.unsubscribe();
    await this.nc.drain().catch(() => this.nc.close());
  }
}
