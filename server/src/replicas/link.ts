import { randomUUID, type KeyObject } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { SledgeError, toSledgeError } from '@sledge/protocol';
import { DEFAULT_PREFIX } from './nats-conn.js';
import { newIdentity, signedBy, verifierOf, type Identity } from './seal.js';
import {
  HEARTBEAT_MS,
  controlContext,
  decode,
  signed,
  subjects,
  unsigned,
  type Announce,
  type ControlReply,
  type ControlRequest,
  type Frame,
  type FrameMsg,
  type Hello,
  type PrimaryMsg,
  type PublicKeys,
  type ReplyMsg,
  type Subjects,
} from './wire.js';

/** A replica running a job stops its VUs when its primary has been silent this long. */
export const DEFAULT_PRIMARY_LOSS_MS = 5000;
/** Primary boots whose keys a replica remembers (the least recently heard goes first, never its job's). */
const MAX_PINS = 32;

/** A replica's job as the link sees it: its id and the primary boot that placed it. */
export interface LinkJob {
  jobId: string;
  boot: string;
}

/** What runs behind a link: the real replica (replica.ts) or a simulated one (the tests' replica-sim). */
export interface LinkOwner {
  /** What the replica says of itself in each heartbeat (the link adds its name, boot id and job). */
  announce(): Omit<Announce, 'name' | 'bootId' | 'jobId'>;
  job(): LinkJob | null;
  /** A control request the primary boot `boot` signed and sealed to this replica (requests for another job or boot never get here). Throw to refuse it. */
  control(req: ControlRequest, boot: string): Promise<{ line?: string }> | { line?: string };
  /** Stop the job's VUs now: its primary restarted, went silent or no longer runs the job here. */
  drop(why: string): void;
}

export interface LinkOptions {
  prefix?: string;
  primaryLossMs?: number;
  log?: (msg: string) => void;
  /** Default: new key pairs (one identity per process). */
  identity?: Identity;
}

interface Pin {
  pk: string;
  key: KeyObject;
  /** The boot's last sequence number seen (an older one is a replay). */
  seq: number;
  seenAt: number;
}

/** A failure as a control reply says it. */
const failureInfo = (e: unknown) => toSledgeError(e, 'SLEDGE_E_INTERNAL').toInfo();

/**
 * A replica's side of the wire (wire.ts), whatever runs its VUs: its
 * identity (keys announced in every signed heartbeat), the primaries it
 * heard (each boot's key pinned at first sight; messages it did not sign,
 * or replayed, are ignored), control requests (opened only when sealed to
 * this replica; answered with a signed reply), its job's frames (signed,
 * numbered), and the job's end when its primary restarts, goes silent or
 * no longer lists the job in its beat.
 */
export class ReplicaLink {
  readonly bootId = randomUUID();
  readonly identity: Identity;
  readonly subj: Subjects;
  /** Resolves when a primary refused this replica before any accepted it (its name is held by another live replica, or the primary's list is full). */
  readonly refused: Promise<SledgeError>;
  private refuse!: (e: SledgeError) => void;
  private accepted = false;
  private seq = 0;
  private readonly pins = new Map<string, Pin>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly said = new Set<string>();
  private publishing: Promise<unknown> = Promise.resolve();
  /** Why the current job was dropped already (each cause is acted on once; a later, other cause is said too). */
  private dropped: { jobId: string; causes: Set<string> } | null = null;
  private readonly log: (msg: string) => void;

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    readonly name: string,
    private readonly owner: LinkOwner,
    private readonly opts: LinkOptions = {},
  ) {
    this.identity = opts.identity ?? newIdentity();
    this.subj = subjects(opts.prefix ?? DEFAULT_PREFIX);
    this.log = opts.log ?? (() => undefined);
    this.refused = new Promise((r) => (this.refuse = r));
  }

  /** The fingerprint of this replica's signing key. */
  get fp(): string {
    return this.identity.signer.fp;
  }

  private get keys(): PublicKeys {
    return { sign: this.identity.signer.pub, seal: this.identity.opener.pub };
  }

  start(): void {
    const { nc, subj } = this;
    nc.subscribe(subj.control(this.name, this.fp), { callback: (err, m) => (err ? undefined : void this.onControl(m)) });
    nc.subscribe(subj.notice(this.name, this.fp), { callback: (err, m) => (err ? undefined : this.onNotice(m)) });
    nc.subscribe(subj.discover, { callback: (err, m) => (!err && this.fromPrimary(m, 'discover') ? this.heartbeat() : undefined) });
    nc.subscribe(subj.primary, {
      callback: (err, m) => {
        const b = err ? null : this.fromPrimary(m, 'beat');
        if (b) this.onBeat(b);
      },
    });
    this.heartbeat();
    this.timers.push(
      setInterval(() => this.heartbeat(), HEARTBEAT_MS),
      setInterval(() => this.checkSilence(), 500),
    );
  }

  private hello(h: Hello): void {
    if (!this.nc.isClosed()) this.nc.publish(this.subj.heartbeat(this.name), signed(this.identity.signer, h));
  }

  heartbeat(): void {
    this.hello({ k: 'hb', seq: ++this.seq, keys: this.keys, a: { ...this.owner.announce(), name: this.name, bootId: this.bootId, jobId: this.owner.job()?.jobId ?? null } });
  }

  private logOnce(key: string, msg: string): void {
    if (this.said.has(key)) return;
    if (this.said.size >= 100) this.said.clear();
    this.said.add(key);
    this.log(msg);
  }

  /** A primary message of kind k that its boot's key signed, newer than the boot's last one; else null (ignored, said once). */
  private fromPrimary<K extends PrimaryMsg['k']>(m: Msg, k: K): Extract<PrimaryMsg, { k: K }> | null {
    const msg = unsigned<PrimaryMsg>(m.data);
    const ignore = (why: string) => (this.logOnce(`${k} ${why}`, `ignored a primary ${k} message: ${why} (a NATS client forging the primary?)`), null);
    if (!msg || msg.k !== k || typeof msg.boot !== 'string' || !Number.isSafeInteger(msg.seq)) return ignore('malformed');
    let pin = this.pins.get(msg.boot);
    if (pin && pin.pk !== msg.pk) return ignore(`another key than boot ${msg.boot}'s`);
    const key = pin?.key ?? verifierOf(msg.pk);
    if (!key || !signedBy(m.data, key)) return ignore('not signed by the key it names');
    if (pin && msg.seq <= pin.seq) return ignore('replayed (an old sequence number)');
    const now = Date.now();
    if (pin) {
      pin.seq = msg.seq;
      pin.seenAt = now;
    } else {
      pin = { pk: msg.pk, key, seq: msg.seq, seenAt: now };
      this.forgetOldestPin();
      this.pins.set(msg.boot, pin);
    }
    return msg as Extract<PrimaryMsg, { k: K }>;
  }

  private forgetOldestPin(): void {
    if (this.pins.size < MAX_PINS) return;
    const keep = this.owner.job()?.boot;
    let oldest: [string, Pin] | null = null;
    for (const e of this.pins) if (e[0] !== keep && (!oldest || e[1].seenAt < oldest[1].seenAt)) oldest = e;
    if (oldest) this.pins.delete(oldest[0]);
  }

  private onBeat(b: Extract<PrimaryMsg, { k: 'beat' }>): void {
    const job = this.owner.job();
    if (!job || !Array.isArray(b.jobs)) return;
    if (b.boot !== job.boot) this.drop(job, 'restarted', `its primary restarted (job ${job.jobId} was interrupted there)`);
    else if (!b.jobs.some((j) => j.key === this.fp && j.jobId === job.jobId)) this.drop(job, 'unlisted', `its primary no longer runs job ${job.jobId} here`);
  }

  private checkSilence(): void {
    const job = this.owner.job();
    if (!job) return;
    const pin = this.pins.get(job.boot);
    const silent = pin ? Date.now() - pin.seenAt : Infinity;
    if (silent > (this.opts.primaryLossMs ?? DEFAULT_PRIMARY_LOSS_MS)) this.drop(job, 'silent', `its primary has been silent for ${Math.round(silent / 1000)} s`);
  }

  private drop(job: LinkJob, cause: string, why: string): void {
    if (this.dropped?.jobId !== job.jobId) this.dropped = { jobId: job.jobId, causes: new Set() };
    if (this.dropped.causes.has(cause)) return;
    this.dropped.causes.add(cause);
    this.owner.drop(why);
  }

  private onNotice(m: Msg): void {
    const n = this.fromPrimary(m, 'notice');
    if (!n || n.to !== this.fp) return;
    if (n.ok) {
      this.accepted = true;
      return;
    }
    const e = new SledgeError('SLEDGE_E_CONFLICT', `the primary refused replica ${this.name}: ${String(n.message)}`, { field: '--name' });
    if (this.accepted) this.logOnce(`refused ${n.boot}`, e.message);
    else this.refuse(e);
  }

  private async onControl(m: Msg): Promise<void> {
    const msg = this.fromPrimary(m, 'ctl');
    if (!msg) return; // no answer: the sender times out
    const plain = msg.to === this.fp && msg.sealed ? this.identity.opener.open(msg.sealed, controlContext(msg.boot, msg.seq, this.fp)) : null;
    if (!plain) return void this.logOnce('unsealed', 'ignored a control request not sealed to this replica');
    let r: ControlReply;
    try {
      r = { ok: true, ...(await this.handle(decode<ControlRequest>(plain), msg.boot)) };
    } catch (e) {
      r = { ok: false, error: failureInfo(e) };
    }
    if (m.reply) m.respond(signed(this.identity.signer, { k: 'reply', name: this.name, boot: msg.boot, seq: msg.seq, r } satisfies ReplyMsg));
  }

  private handle(req: ControlRequest, boot: string): Promise<{ line?: string }> | { line?: string } {
    if (req.op !== 'prepare') {
      const job = this.owner.job();
      if (!job || job.jobId !== req.jobId || job.boot !== boot) throw new SledgeError('SLEDGE_E_NOT_FOUND', `this replica runs no VUs of job ${req.jobId} for primary ${boot}`);
    }
    return this.owner.control(req, boot);
  }

  /** The publisher of a job's frames: signed, numbered from 0, each stored after the previous one's ack. Returns a frame's size. */
  frames(jobId: string): (f: Frame) => number {
    const subject = this.subj.frames(jobId, this.name);
    let n = 0;
    return (f) => {
      const data = signed(this.identity.signer, { k: 'frame', job: jobId, name: this.name, n: n++, f } satisfies FrameMsg);
      this.publishing = this.publishing.then(() => this.js.publish(subject, data)).catch((e: unknown) => this.log(`a frame of job ${jobId} was not stored: ${e instanceof Error ? e.message : String(e)}`));
      return data.length;
    };
  }

  /** Resolves once every frame published so far is stored (or failed). */
  flushed(): Promise<unknown> {
    return this.publishing;
  }

  /** Stop heartbeating, store the last frames, say it leaves (its name is free at once), and leave NATS. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.publishing;
    this.hello({ k: 'leave', seq: ++this.seq, keys: this.keys, name: this.name });
    await this.nc.drain().catch(() => this.nc.close());
  }
}
