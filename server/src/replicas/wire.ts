/**
 * What primary and replicas say to each other over NATS: subjects and
 * message shapes (JSON). Control is core NATS request/reply (never stored);
 * result frames go to a JetStream stream, one subject per job and replica,
 * so a slow consumer loses nothing. Credentials for the target travel only
 * in a `prepare` request, over an authenticated connection.
 */
import type { CpuSample, ErrorInfo, SystemInfo } from '@sledge/protocol';
import type { LogLine } from '../shared/messages.js';
import type { RemoteStart } from '../runner/vu-host.js';
import type { HistPairs } from '../shared/sparse-hist.js';
import type { VuSlices } from '../shared/vu-slices.js';

/** A subject token from any id (NATS tokens cannot hold '.', '*', '>' or spaces). */
export const token = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, '_');

export function subjects(prefix: string) {
  return {
    /** replica -> primary, every HEARTBEAT_MS: its Announce. */
    heartbeat: (name: string) => `${prefix}.replica.hb.${token(name)}`,
    heartbeats: `${prefix}.replica.hb.*`,
    /** primary -> replicas: answer with a heartbeat now (a primary that just started). */
    discover: `${prefix}.replica.discover`,
    /** primary -> one replica: Control requests. */
    control: (name: string) => `${prefix}.replica.ctl.${token(name)}`,
    /** primary -> replicas, every HEARTBEAT_MS: PrimaryBeat (a replica whose job's primary restarted or went silent stops its VUs). */
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

export interface PrimaryBeat {
  bootId: string;
  version: string;
  /** The job the primary runs on replicas, or null. */
  jobId: string | null;
}

/** prepare: start this replica's VUs (threads load their drivers; VUs wait for go). `vus`: this replica's (index = the run's global index). */
export type PrepareRequest = { op: 'prepare'; primaryBootId: string } & RemoteStart;

export type ControlRequest =
  | PrepareRequest
  | { op: 'go'; jobId: string }
  | { op: 'phase'; jobId: string; phase: number }
  /** Step loads: the run's VUs with a global index below `vus` may run. */
  | { op: 'active'; jobId: string; vus: number }
  /** RUN_STOP: after the current operation; RUN_ABORT: now. */
  | { op: 'run'; jobId: string; run: number };

export type ControlReply = { ok: true; line?: string } | { ok: false; error: ErrorInfo };

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

const enc = new TextEncoder();
const dec = new TextDecoder();
export const encode = (x: unknown): Uint8Array => enc.encode(JSON.stringify(x));
export const decode = <T>(b: Uint8Array): T => JSON.parse(dec.decode(b)) as T;
