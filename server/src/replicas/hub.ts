import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager, type ConsumerMessages, type JetStreamClient } from '@nats-io/jetstream';
import { createInbox, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { REPLICA_NAME_PATTERN, SledgeError, type NatsConnectionState, type ReplicaInfo, type ReplicaList } from '@sledge/protocol';
import { VERSION } from '../version.js';
import type { AgentHub } from '../runner/samplers/agents.js';
import { DEFAULT_PREFIX, authenticates, publicUrl, type NatsSettings } from './nats-conn.js';
import { connectNats } from './nats-client.js';
import { DEFAULT_LOSS_MS, DEFAULT_MAX_REPLICAS, DEFAULT_PRUNE_MS, Registry, type Entry, type Peer } from './registry.js';
import { Signer, fingerprint, seal, signedBy, verifierOf } from './seal.js';
import {
  HEARTBEAT_MS,
  controlContext,
  encode,
  isAnnounce,
  signed,
  subjects,
  unsigned,
  verified,
  type ControlReply,
  type ControlRequest,
  type Frame,
  type FrameMsg,
  type FromPrimary,
  type Hello,
  type PrimaryMsg,
  type ReplyMsg,
  type Subjects,
} from './wire.js';

/** Frames are kept this long in the stream (the primary applies them while the job runs; the job store keeps the result), and at most this much of them (the oldest go first). */
const FRAME_MAX_AGE_NS = 24 * 3600 * 1e9;
const FRAME_MAX_BYTES = 1024 ** 3;
const NAME = new RegExp(REPLICA_NAME_PATTERN);

export interface HubOptions {
  lossMs?: number;
  /** A lost replica leaves the list after this long (default 10 minutes). */
  pruneMs?: number;
  /** At most this many replicas are listed (default 1000). */
  maxReplicas?: number;
  /** Replicas' CPU samples go here, as CPU agents named "replica <name>": jobs record them. */
  agents?: AgentHub;
  log?: (msg: string) => void;
  /** Refused replicas (a held name, a full list) and messages not signed by whom they claim (default: log). */
  warn?: (msg: string) => void;
}

/**
 * The primary's side of scale-out: the replicas that joined (Registry:
 * identities, loss, pruning), control requests to one replica (sealed to it,
 * signed by this boot, answered by a reply it signed), and the frames of a
 * job read back from JetStream, accepted only from the replica identities the
 * job was placed on. The primary heartbeats too, with its boot id and the
 * jobs it runs on which replica: a replica whose job's primary restarted,
 * went silent or no longer lists the job stops its VUs.
 */
export class ReplicaHub {
  readonly bootId = randomUUID();
  private readonly signer = Signer.generate();
  private seq = 0;
  private readonly registry: Registry;
  private readonly lostListeners = new Set<(name: string, at: number) => void>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly said = new Set<string>();
  private sub: Subscription | null = null;
  /** The job whose VUs run on replicas, and the replica identities they run on (each beat lists them). */
  private placed: { jobId: string; peers: Map<string, Peer> } | null = null;
  readonly subjects: Subjects;
  readonly authenticated: boolean;
  readonly lossMs: number;
  /** This server's own NATS connection, from nats.js status events and closed() (watchConnection). */
  private conn: NatsConnectionState = { state: 'connected', since: Date.now() };
  private closing = false;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    private readonly settings: NatsSettings,
    private readonly opts: HubOptions,
  ) {
    this.subjects = subjects(settings.prefix ?? DEFAULT_PREFIX);
    this.authenticated = authenticates(settings);
    this.lossMs = opts.lossMs ?? DEFAULT_LOSS_MS;
    this.registry = new Registry({ lossMs: this.lossMs, pruneMs: opts.pruneMs ?? DEFAULT_PRUNE_MS, max: opts.maxReplicas ?? DEFAULT_MAX_REPLICAS });
  }

  static async open(settings: NatsSettings, opts: HubOptions = {}): Promise<ReplicaHub> {
    const nc = await connectNats(settings, `sledge-primary ${VERSION}`);
    try {
      const hub = new ReplicaHub(nc, jetstream(nc), settings, opts);
      await hub.ensureStream();
      hub.listen();
      hub.watchConnection();
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

  private log(msg: string): void {
    this.opts.log?.(msg);
  }

  private warn(msg: string): void {
    (this.opts.warn ?? this.opts.log)?.(msg);
  }

  /** A warning said once per key (forgeries can repeat without flooding the log). */
  private warnOnce(key: string, msg: string): void {
    if (this.said.has(key)) return;
    if (this.said.size >= 1000) this.said.clear();
    this.said.add(key);
    this.warn(msg);
  }

  /** The boot id, key and next sequence number of a message of this primary (publish it before any await: replicas refuse a sequence older than one they saw). */
  private next(): FromPrimary {
    return { boot: this.bootId, pk: this.signer.pub, seq: ++this.seq };
  }

  private say(subject: string, msg: PrimaryMsg, reply?: string): void {
    this.nc.publish(subject, signed(this.signer, msg), reply ? { reply } : undefined);
  }

  private listen(): void {
    this.sub = this.nc.subscribe(this.subjects.heartbeats, { callback: (err, m) => (err ? undefined : this.hello(m)) });
    const beat = () => {
      const p = this.placed;
      const jobs = p ? [...p.peers.values()].map((x) => ({ name: x.name, key: x.fp, jobId: p.jobId })) : [];
      this.say(this.subjects.primary, { k: 'beat', ...this.next(), version: VERSION, jobs });
    };
    beat();
    this.say(this.subjects.discover, { k: 'discover', ...this.next() });
    this.timers.push(setInterval(beat, HEARTBEAT_MS), setInterval(() => this.sweep(), Math.min(500, this.lossMs / 4)));
  }

  /**
   * Follow this server's NATS connection: a lost connection (NATS stopped,
   * the network cut) is logged and shown by the replicas API and page as
   * reconnecting until nats.js gets it back (it retries for ever); a
   * connection that ends for good is closed. Replicas' heartbeats cannot
   * arrive meanwhile, so they turn lost after the loss timeout, and come back
   * with the connection.
   */
  private watchConnection(): void {
    const url = publicUrl(this.settings.url);
    const set = (state: NatsConnectionState['state'], reason?: string) => {
      this.conn = { state, since: Date.now(), ...(reason ? { reason } : {}) };
    };
    void (async () => {
      for await (const st of this.nc.status()) {
        if (this.closing) return;
        if ((st.type === 'disconnect' || st.type === 'reconnecting') && this.conn.state === 'connected') {
          set('reconnecting', st.type === 'disconnect' ? `disconnected from ${st.server.replace(/^.*@/, '')}` : undefined);
          this.warn(`NATS connection to ${url} lost: reconnecting (replicas cannot be reached and runs on them are refused until it is back)`);
        } else if (st.type === 'reconnect') {
          set('connected');
          this.log(`NATS connection to ${url} is back`);
          this.say(this.subjects.discover, { k: 'discover', ...this.next() });
        } else if (st.type === 'error' && this.conn.state !== 'connected') {
          set(this.conn.state, st.error.message);
        }
      }
    })().catch(() => undefined);
    void this.nc.closed().then((err) => {
      if (this.closing) return;
      set('closed', err instanceof Error ? err.message : undefined);
      this.warn(`NATS connection to ${url} closed${err instanceof Error ? ` (${err.message})` : ''}: scale-out is off until this server restarts`);
    });
  }

  /** This server's NATS connection now (connected, reconnecting, closed). */
  get connection(): NatsConnectionState {
    return { ...this.conn };
  }

  /** A replica's heartbeat or leave: signed by the key it names, on its own name's subject. */
  private hello(m: Msg): void {
    const h = unsigned<Hello>(m.data);
    if (!h || typeof h.keys?.sign !== 'string' || typeof h.keys.seal !== 'string' || typeof h.seq !== 'number') return;
    const name = h.k === 'hb' && isAnnounce(h.a) ? h.a.name : h.k === 'leave' ? h.name : null;
    if (typeof name !== 'string' || !NAME.test(name) || m.subject !== this.subjects.heartbeat(name)) return;
    const verify = this.registry.verifierFor(name, h.keys.sign) ?? verifierOf(h.keys.sign);
    if (!verify) return;
    if (!signedBy(m.data, verify)) {
      this.warnOnce(`unsigned ${name}`, `a heartbeat for replica ${name} was not signed by the key it names: ignored (a NATS client forging replicas?)`);
      return;
    }
    const fp = fingerprint(h.keys.sign);
    if (h.k === 'leave') {
      const e = this.registry.left(name, fp, h.seq);
      if (e) {
        this.log(`replica ${name} left (it stopped cleanly)`);
        // Its CPU samples end now; a job it ran learns of it at the loss timeout, as of a lost one.
        if (e.agentId !== undefined) this.opts.agents?.disconnect(e.agentId);
        delete e.agentId;
      }
      return;
    }
    if (h.k !== 'hb') return;
    const now = Date.now();
    const v = this.registry.seen(h, verify, now);
    const { a } = h;
    switch (v.t) {
      case 'joined':
        if (v.replaced && !v.replaced.lost) this.markLost(v.replaced, now);
        this.log(`replica ${a.name} joined (${a.host}, ${a.cores} cores, Sledge ${a.version}, key ${fp})`);
        this.notice(name, fp, true, `joined the primary (boot ${this.bootId})`);
        this.cpuSample(v.entry);
        break;
      case 'back':
        this.log(`replica ${a.name} is back after a loss (the VUs the run wrote off stop: this server's heartbeat no longer lists them)`);
        this.cpuSample(v.entry);
        break;
      case 'seen':
        this.cpuSample(v.entry);
        break;
      case 'refused': {
        const held = v.holder;
        const msg = `replica name ${name} is held by a live replica (host ${held.a.host}, key ${held.peer.fp}, last heartbeat ${Math.round((now - held.lastSeenAt) / 100) / 10} s ago)`;
        if (v.first) this.warn(`${msg}; another replica (host ${a.host}, key ${fp}) announced the same name and is refused: give one of them another --name`);
        this.notice(name, fp, false, `${msg}: give this replica another --name (the name is free once that replica leaves, or ${this.lossMs / 1000} s after its last heartbeat)`);
        break;
      }
      case 'full': {
        const msg = `this primary lists ${this.registry.size} replicas, its limit (SLEDGE_REPLICA_MAX), none of them lost`;
        if (v.first) this.warn(`${msg}: replica ${name} (host ${a.host}) and further new names are refused`);
        this.notice(name, fp, false, msg);
        break;
      }
      case 'stale':
        break;
    }
  }

  private notice(name: string, fp: string, ok: boolean, message: string): void {
    this.say(this.subjects.notice(name, fp), { k: 'notice', ...this.next(), to: fp, ok, message });
  }

  private cpuSample(e: Entry): void {
    const agents = this.opts.agents;
    if (!agents) return;
    e.agentId ??= agents.connect(`replica ${e.a.name}`, e.a.system);
    agents.sample(e.agentId, e.a.cpu);
  }

  private markLost(e: Entry, at: number): void {
    if (e.agentId !== undefined) this.opts.agents?.disconnect(e.agentId);
    delete e.agentId;
    // A replica that said it leaves was logged then; it stays "left" on the list.
    if (!e.left) this.log(`replica ${e.a.name} lost: no heartbeat since ${new Date(e.lastSeenAt).toISOString()}`);
    for (const l of this.lostListeners) l(e.a.name, at);
  }

  private sweep(): void {
    const now = Date.now();
    const { lost, pruned } = this.registry.sweep(now);
    for (const e of lost) this.markLost(e, now);
    for (const e of pruned) this.log(`replica ${e.a.name} leaves the list: ${e.left ? 'left' : 'lost'} since ${new Date(e.lostAt).toISOString()}`);
  }

  /** Called with a replica's name when it stops heartbeating. Returns the unsubscribe. */
  onLost(l: (name: string, at: number) => void): () => void {
    this.lostListeners.add(l);
    return () => this.lostListeners.delete(l);
  }

  isLost(name: string): boolean {
    return this.registry.isLost(name);
  }

  list(): ReplicaInfo[] {
    return this.registry.list();
  }

  describe(): ReplicaList {
    return { enabled: true, nats: publicUrl(this.settings.url), authenticated: this.authenticated, connection: this.connection, version: VERSION, now: Date.now(), replicas: this.list() };
  }

  /** The job whose VUs run on replicas, or null. */
  get jobId(): string | null {
    return this.placed?.jobId ?? null;
  }

  /** A run places its VUs on these replicas (as they are now: their current identities). One run at a time. */
  place(jobId: string, names: string[]): Map<string, Peer> {
    if (this.placed) throw new SledgeError('SLEDGE_E_CONFLICT', `job ${this.placed.jobId} runs on replicas already`);
    const peers = new Map<string, Peer>();
    for (const n of names) {
      const e = this.registry.live(n);
      if (!e) throw new SledgeError('SLEDGE_E_CONFLICT', `replica ${n} has left or is lost: wait for it, or name other replicas`, { field: 'placement.replicas' });
      peers.set(n, e.peer);
    }
    this.placed = { jobId, peers: new Map(peers) };
    return peers;
  }

  /** The job no longer runs on this replica (or, without a name, on any): the next beat does not list it, and a replica still running it stops. */
  release(jobId: string, name?: string): void {
    if (this.placed?.jobId !== jobId) return;
    if (name === undefined) this.placed = null;
    else this.placed.peers.delete(name);
  }

  /** A control request to the replica holding `name`, sealed to it, with a deadline; its refusal or silence is a typed error. */
  control(name: string, req: ControlRequest, timeoutMs = 5000): Promise<string | undefined> {
    const e = this.registry.live(name);
    if (!e) return Promise.reject(new SledgeError('SLEDGE_E_CONFLICT', `replica ${name} has left or is lost: it cannot take "${req.op}"`));
    const { peer } = e;
    const from = this.next();
    const msg: PrimaryMsg = { k: 'ctl', ...from, to: peer.fp, sealed: seal(peer.sealPub, encode(req), controlContext(from.boot, from.seq, peer.fp)) };
    const fail = (why: string, cause?: unknown) => new SledgeError('SLEDGE_E_TIMEOUT', `replica ${name} did not answer "${req.op}" within ${timeoutMs} ms (${why})`, cause ? { cause } : {});
    return new Promise<ControlReply>((resolve, reject) => {
      const finish = (f: () => void) => {
        clearTimeout(timer);
        sub.unsubscribe();
        f();
      };
      const sub = this.nc.subscribe(createInbox(), {
        callback: (err, m) => {
          if (err) return finish(() => reject(fail(err.message, err)));
          if (m.data.length === 0 && m.headers?.code === 503) return finish(() => reject(fail('no responders')));
          const r = verified<ReplyMsg>(m.data, peer.verify);
          if (!r || r.k !== 'reply' || r.boot !== this.bootId || r.seq !== from.seq || r.name !== name) {
            this.warnOnce(`reply ${name}`, `a reply to a control request for replica ${name} was not signed by it: ignored (a NATS client forging replies?)`);
            return;
          }
          finish(() => resolve(r.r));
        },
      });
      const timer = setTimeout(() => finish(() => reject(fail('timeout'))), timeoutMs);
      this.say(this.subjects.control(name, peer.fp), msg, sub.getSubject());
    }).then((reply) => {
      if (!reply.ok) throw SledgeError.fromInfo({ ...reply.error, message: `replica ${name}: ${reply.error.message}` });
      return reply.line;
    });
  }

  /**
   * Read a job's frames from the start of the stream, in order, until stopped.
   * A frame counts only when the identity the job placed on that replica
   * signed it for this job with a number above its last one; anything else
   * goes to onDrop (its subject).
   */
  async frames(jobId: string, peers: ReadonlyMap<string, Peer>, onFrame: (replica: string, f: Frame) => void, onDrop: (subject: string) => void): Promise<{ stop: () => Promise<void> }> {
    const consumer = await this.js.consumers.get(this.subjects.stream, { filter_subjects: this.subjects.framesOfJob(jobId) });
    const msgs: ConsumerMessages = await consumer.consume();
    const last = new Map<string, number>();
    const done = (async () => {
      for await (const m of msgs) {
        const replica = m.subject.slice(m.subject.lastIndexOf('.') + 1);
        const peer = peers.get(replica);
        const fm = peer ? verified<FrameMsg>(m.data, peer.verify) : null;
        if (!fm || fm.k !== 'frame' || fm.job !== jobId || fm.name !== replica || !Number.isSafeInteger(fm.n) || fm.n <= (last.get(replica) ?? -1)) {
          this.warnOnce(`frames ${jobId}`, `job ${jobId}: a frame on ${m.subject} was not signed by the replica placed there (or was replayed): dropped, as are later ones (the job's output counts them)`);
          onDrop(m.subject);
          continue;
        }
        last.set(replica, fm.n);
        try {
          onFrame(replica, fm.f);
        } catch (e) {
          this.log(`a frame from replica ${replica} could not be applied: ${e instanceof Error ? e.message : String(e)}`);
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
    this.closing = true;
    for (const t of this.timers) clearInterval(t);
    this.sub?.unsubscribe();
    await this.nc.drain().catch(() => this.nc.close());
  }
}
