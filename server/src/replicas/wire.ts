/**
 * What primary and replicas say to each other over NATS: subjects and
 * message shapes (JSON). Control is core NATS request/reply (never stored);
 * result frames go to a JetStream stream, one subject per job and replica,
 * so a slow consumer loses nothing.
 *
 * Trust (docs/security.md, "Scale-out trust model"): everyone holding the
 * NATS credentials can read and publish every subject, so every message is
 * signed (seal.ts): a replica's heartbeats, replies and frames with its own
 * key, which it announces in its heartbeats; the primary's beats, discovery,
 * notices and control requests with its boot's key, which replicas pin per
 * boot id at first sight. Control requests are sealed to the one replica they
 * are for (the target's credentials travel only in a sealed prepare). Every
 * signed body names what it is for (kind, job, replica, sequence), so it
 * cannot be replayed elsewhere.
 */
import type { CpuSample, ErrorInfo, SystemInfo } from '@sledge/protocol';
import type { LogLine } from '../shared/messages.js';
import type { RemoteStart } from '../runner/vu-host.js';
import type { HistPairs } from '../shared/sparse-hist.js';
import type { VuSlices } from '../shared/vu-slices.js';
import { signedBody, signedBy, type Sealed, type Signer } from './seal.js';
import type { KeyObject } from 'node:crypto';

/** A subject token from any id (NATS tokens cannot hold '.', '*', '>' or spaces). */
export const token = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, '_');

export function subjects(prefix: string) {
  return {
    /** replica -> primary, every HEARTBEAT_MS: its Hello (a heartbeat, or its leave). */
    heartbeat: (name: string) => `${prefix}.replica.hb.${token(name)}`,
    heartbeats: `${prefix}.replica.hb.*`,
    /** primary -> replicas: answer with a heartbeat now (a primary that just started). */
    discover: `${prefix}.replica.discover`,
    /** primary -> one replica identity (its name and key fingerprint): sealed Control requests. */
    control: (name: string, fp: string) => `${prefix}.replica.ctl.${token(name)}.${fp}`,
    /** primary -> one replica identity: whether it joined or was refused (its name is held by another live replica). */
    notice: (name: string, fp: string) => `${prefix}.replica.notice.${token(name)}.${fp}`,
    /** primary -> replicas, every HEARTBEAT_MS: its Beat, listing the jobs it runs on which replica. */
    primary: `${prefix}.primary.hb`,
    /** replica -> primary (JetStream): Frames of one job. */
    frames: (jobId: string, name: string) => `${prefix}.frames.${token(jobId)}.${token(name)}`,
    framesOfJob: (jobId: string) => `${prefix}.frames.${token(jobId)}.*`,
    framesAll: `${prefix}.frames.>`,
    /** The JetStream stream holding the frames. */
    stream: `${token(prefix).toUpperCase()}_FRAMES`,
  };
}
export type Subjects = ReturnType<typeof subjects>;

export const HEARTBEAT_MS = 1000;

/** What a replica says of itself (each heartbeat). */
export interface Announce {
  name: string;
  version: string;
  host: string;
  cores: number;
  drivers: string[];
  /** The job it runs VUs for, or null. */
  jobId: string | null;
  /** Machine CPU busy % and this process's CPU % over the last heartbeat interval. */
  cpuPct: number | null;
  processCpuPct: number | null;
  /** Distinguishes a restarted replica of the same name. */
  bootId: string;
  /** Its machine, and its CPU over the last heartbeat interval (what a CPU agent sends): the primary records them with the job. */
  system: SystemInfo;
  cpu: CpuSample;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const numOrNull = (x: unknown) => x === null || typeof x === 'number';

/** Does this look like an Announce (what the primary lists and records must have the right types, whoever sent it)? */
export function isAnnounce(a: unknown): a is Announce {
  return (
    isObject(a) &&
    typeof a['name'] === 'string' &&
    typeof a['version'] === 'string' &&
    typeof a['host'] === 'string' &&
    typeof a['cores'] === 'number' &&
    Array.isArray(a['drivers']) &&
    a['drivers'].every((d) => typeof d === 'string') &&
    (a['jobId'] === null || typeof a['jobId'] === 'string') &&
    numOrNull(a['cpuPct']) &&
    numOrNull(a['processCpuPct']) &&
    typeof a['bootId'] === 'string' &&
    isObject(a['system']) &&
    isObject(a['cpu'])
  );
}

/** A replica's public keys: `sign` checks what it publishes, `seal` is what control requests are sealed to. */
export interface PublicKeys {
  sign: string;
  seal: string;
}

/** replica -> primary on its heartbeat subject, signed with keys.sign; seq grows with every Hello of the process. */
export type Hello = { k: 'hb'; seq: number; keys: PublicKeys; a: Announce } | { k: 'leave'; seq: number; keys: PublicKeys; name: string };

/** A job the primary runs VUs of on one replica identity (its name and key fingerprint). */
export interface PlacedJob {
  name: string;
  key: string;
  jobId: string;
}

/** What every primary message carries: its boot id, the boot's public signing key, and a sequence growing across the boot's messages. */
export interface FromPrimary {
  boot: string;
  pk: string;
  seq: number;
}

/** primary -> replicas, signed with pk. */
export type PrimaryMsg = FromPrimary &
  (
    | { k: 'beat'; version: string; jobs: PlacedJob[] }
    | { k: 'discover' }
    /** A ControlRequest sealed to the replica whose key fingerprint is `to` (context: controlContext). */
    | { k: 'ctl'; to: string; sealed: Sealed }
    | { k: 'notice'; to: string; ok: boolean; message: string }
  );

/** The context a control request is sealed under: it opens only as this boot's request number seq to this replica. */
export const controlContext = (boot: string, seq: number, to: string): string => `control ${boot} ${seq} ${to}`;

/** prepare: start this replica's VUs (threads load their drivers; VUs wait for go). `vus`: this replica's (index = the run's global index). */
export type PrepareRequest = { op: 'prepare' } & RemoteStart;

export type ControlRequest =
  | PrepareRequest
  | { op: 'go'; jobId: string }
  | { op: 'phase'; jobId: string; phase: number }
  /** Step loads: the run's VUs with a global index below `vus` may run. */
  | { op: 'active'; jobId: string; vus: number }
  /** RUN_STOP: after the current operation; RUN_ABORT: now. */
  | { op: 'run'; jobId: string; run: number };

export type ControlReply = { ok: true; line?: string } | { ok: false; error: ErrorInfo };

/** replica -> primary: the answer to the primary boot's control request number seq, signed by the replica. */
export interface ReplyMsg {
  k: 'reply';
  name: string;
  boot: string;
  seq: number;
  r: ControlReply;
}

/** Latency recorded in one second, per operation (value/count pairs, µs). */
export type HistByOp = Record<string, HistPairs>;

export interface ProfileWire {
  position: number;
  elapsedMs: number;
  perType: Record<string, { pairs: HistPairs; totalNs: number }>;
}

export type Frame =
  | { t: 'ready'; loop: string }
  /** Every second while VUs run (and once more at the end): the VUs' shared state, the second's latency, output lines. */
  | { t: 'tick'; ts: number; slices: VuSlices; hist: HistByOp; lines: LogLine[] }
  | { t: 'profile'; vus: ProfileWire[] }
  | { t: 'done'; reason: 'ended' | 'aborted' | 'primary-lost' }
  | { t: 'fatal'; error: ErrorInfo };

/** replica -> JetStream: frame number n (growing from 0) of one job's VUs on one replica, signed by the replica. */
export interface FrameMsg {
  k: 'frame';
  job: string;
  name: string;
  n: number;
  f: Frame;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
export const encode = (x: unknown): Uint8Array => enc.encode(JSON.stringify(x));
export const decode = <T>(b: Uint8Array): T => JSON.parse(dec.decode(b)) as T;

/** A message signed by `signer` (the signature, then its JSON). */
export const signed = (signer: Signer, msg: object): Uint8Array => signer.sign(encode(msg));

/** The message inside signed bytes, unchecked (an object with a string `k`), or null: check it with signedBy before trusting it. */
export function unsigned<T extends { k: string }>(bytes: Uint8Array): T | null {
  const body = signedBody(bytes);
  if (!body) return null;
  try {
    const m = decode<T>(body);
    return m !== null && typeof m === 'object' && typeof m.k === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** The message when `key` signed it, else null. */
export function verified<T extends { k: string }>(bytes: Uint8Array, key: KeyObject): T | null {
  const m = unsigned<T>(bytes);
  return m && signedBy(bytes, key) ? m : null;
}
