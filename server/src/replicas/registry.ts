import type { KeyObject } from 'node:crypto';
import type { ReplicaInfo } from '@sledge/protocol';
import { VERSION } from '../version.js';
import { fingerprint } from './seal.js';
import type { Announce, PublicKeys } from './wire.js';

/** A replica that has not heartbeaten for this long is lost (its VUs' work so far still counts). */
export const DEFAULT_LOSS_MS = 5000;
/** A lost replica leaves the list after this long. */
export const DEFAULT_PRUNE_MS = 10 * 60_000;
/** At most this many replicas are listed; a new name beyond it takes a lost one's place, or is refused. */
export const DEFAULT_MAX_REPLICAS = 1000;

/** One replica identity: its name and keys (the key that checks its messages, the key its control requests are sealed to). */
export interface Peer {
  name: string;
  signPub: string;
  /** Fingerprint of its signing key. */
  fp: string;
  sealPub: string;
  verify: KeyObject;
}

export interface Entry {
  peer: Peer;
  a: Announce;
  /** The sequence of its last heartbeat (older ones are replays). */
  seq: number;
  joinedAt: number;
  lastSeenAt: number;
  /** No heartbeat for the loss timeout (listeners were told), and since when. */
  lost: boolean;
  lostAt: number;
  /** It said it leaves: its name is free for another identity (it turns lost with its last heartbeat's age). */
  left: boolean;
  /** Its id as a CPU agent while it is not lost (the hub's). */
  agentId?: number;
}

/** What a heartbeat did to the registry. */
export type Seen =
  | { t: 'joined'; entry: Entry; replaced?: Entry }
  | { t: 'seen'; entry: Entry }
  | { t: 'back'; entry: Entry }
  /** A sequence not newer than the last one: a replay (or reordering). */
  | { t: 'stale' }
  /** The name is held by another live identity; `first`: the first refusal of this identity. */
  | { t: 'refused'; holder: Entry; first: boolean }
  /** The registry is full of live replicas; `first`: the first refusal since it filled. */
  | { t: 'full'; first: boolean };

export interface RegistryOptions {
  lossMs: number;
  pruneMs: number;
  max: number;
}

/**
 * The replicas a primary knows, by name, each bound to one identity (its
 * signing key) while it lives: another identity announcing a live replica's
 * name is refused (no flapping between two processes). A replica that stops
 * heartbeating turns lost after lossMs and leaves the list pruneMs later; the
 * list holds at most `max` replicas. No NATS here (hub.ts wires it).
 */
export class Registry {
  private readonly entries = new Map<string, Entry>();
  /** Identities refused for a held name, so that each is logged once (bounded). */
  private readonly refusedOnce = new Set<string>();
  private fullSaid = false;

  constructor(readonly opts: RegistryOptions) {}

  /** A heartbeat whose signature `verify` (its keys.sign) checked. */
  seen(hb: { seq: number; keys: PublicKeys; a: Announce }, verify: KeyObject, now: number): Seen {
    const { a } = hb;
    const fp = fingerprint(hb.keys.sign);
    const e = this.entries.get(a.name);
    if (e && e.peer.fp === fp) {
      if (hb.seq <= e.seq) return { t: 'stale' };
      e.seq = hb.seq;
      e.a = a;
      e.lastSeenAt = now;
      if (!e.lost) return { t: 'seen', entry: e };
      e.lost = false;
      e.joinedAt = now;
      return { t: 'back', entry: e };
    }
    if (e && !e.lost && !e.left) {
      const key = `${a.name}/${fp}`;
      const first = !this.refusedOnce.has(key);
      if (first) {
        if (this.refusedOnce.size >= this.opts.max) this.refusedOnce.clear();
        this.refusedOnce.add(key);
      }
      return { t: 'refused', holder: e, first };
    }
    if (!e && this.entries.size >= this.opts.max && !this.evictLost()) {
      const first = !this.fullSaid;
      this.fullSaid = true;
      return { t: 'full', first };
    }
    const entry: Entry = { peer: { name: a.name, signPub: hb.keys.sign, fp, sealPub: hb.keys.seal, verify }, a, seq: hb.seq, joinedAt: now, lastSeenAt: now, lost: false, lostAt: 0, left: false };
    this.entries.set(a.name, entry);
    return { t: 'joined', entry, ...(e ? { replaced: e } : {}) };
  }

  /** The key that checks the messages of the identity that holds `name` with this public key (spares importing it for every heartbeat). */
  verifierFor(name: string, signPub: string): KeyObject | null {
    const e = this.entries.get(name);
    return e && e.peer.signPub === signPub ? e.peer.verify : null;
  }

  /** The replica `fp` says it leaves (a signed leave): its name is free at once. */
  left(name: string, fp: string, seq: number): Entry | null {
    const e = this.entries.get(name);
    if (!e || e.peer.fp !== fp || seq <= e.seq) return null;
    e.seq = seq;
    e.left = true;
    return e;
  }

  /** The oldest lost replica leaves the list to make room; false when none is lost. */
  private evictLost(): boolean {
    let oldest: Entry | null = null;
    for (const e of this.entries.values()) if (e.lost && (!oldest || e.lostAt < oldest.lostAt)) oldest = e;
    if (!oldest) return false;
    this.entries.delete(oldest.peer.name);
    return true;
  }

  /** Replicas silent for lossMs turn lost; replicas lost for pruneMs leave the list. */
  sweep(now: number): { lost: Entry[]; pruned: Entry[] } {
    const lost: Entry[] = [];
    const pruned: Entry[] = [];
    for (const e of this.entries.values()) {
      if (!e.lost && now - e.lastSeenAt > this.opts.lossMs) {
        e.lost = true;
        e.lostAt = now;
        lost.push(e);
      } else if (e.lost && now - e.lostAt > this.opts.pruneMs) {
        this.entries.delete(e.peer.name);
        pruned.push(e);
      }
    }
    if (pruned.length) this.fullSaid = false;
    return { lost, pruned };
  }

  /** The identity that holds a name now, unless it is lost or left. */
  live(name: string): Entry | null {
    const e = this.entries.get(name);
    return e && !e.lost && !e.left ? e : null;
  }

  isLost(name: string): boolean {
    return !this.live(name);
  }

  get size(): number {
    return this.entries.size;
  }

  list(): ReplicaInfo[] {
    return [...this.entries.values()]
      .map(({ a, peer, joinedAt, lastSeenAt, lost, left }) => ({
        name: a.name,
        key: peer.fp,
        version: a.version,
        versionMatch: a.version === VERSION,
        host: a.host,
        cores: a.cores,
        drivers: a.drivers,
        state: left ? ('left' as const) : lost ? ('lost' as const) : a.jobId ? ('busy' as const) : ('ready' as const),
        jobId: a.jobId,
        cpuPct: a.cpuPct,
        processCpuPct: a.processCpuPct,
        joinedAt,
        lastSeenAt,
      }))
      .sort((x, y) => x.name.localeCompare(y.name));
  }
}
