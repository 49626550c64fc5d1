import type { RecordableHistogram } from 'node:perf_hooks';
import type { VuPlan } from '@sledge/core';
import type { ErrorInfo, ReplicaRunFields, Target } from '@sledge/protocol';
import type { SharedBlocks } from '../shared/layout.js';
import type { LogLine, VuAssignment, VuLoopPreference, VuProfile } from '../shared/messages.js';

/**
 * Where a run's VUs live, as the runner drives them: this server's worker
 * threads (VuPool) or replicas (the scale-out module's RemoteVus). Either
 * way their counters, states and faults are in the run's shared blocks.
 */
export interface VuHost {
  /** Every VU thread loaded its driver (the clock may start). */
  readonly allReady: Promise<void>;
  /** Every VU ended (or its host was lost). */
  readonly allDone: Promise<void>;
  /** Measured-window profiles (perf_hooks histograms). */
  readonly profiles: VuProfile[];
  readonly failure: ErrorInfo | null;
  /** Interval latency histograms by operation name, since the last sample. */
  readonly interval: Partial<Record<string, RecordableHistogram>>;
  setPhase(p: number): void;
  setRun(v: number): void;
  go(): void;
  stop(graceMs: number): Promise<void>;
  abort(): Promise<void>;
  settleStates(vus: number): void;
}

/** What VUs placed elsewhere need to start: the run's settings, and this server's shared blocks they report into. */
export interface RemoteStart {
  jobId: string;
  workload: string;
  target: Target;
  seed: number;
  options: unknown;
  params: unknown;
  plan: VuPlan;
  /** Every VU of the run (global index, position, start delay). */
  vus: VuAssignment[];
  vuLoop: VuLoopPreference;
  /** The job's session tag (core vuSessionName): the replica's VU sessions carry it, so the job's ASH knows them. */
  sessionTag?: string;
}

/** VUs on replicas: a VuHost that starts over the network and reports per replica. */
export interface RemoteVus extends VuHost {
  /** Place and prepare the VUs; returns the monitor lines saying where they run. */
  start(run: RemoteStart): Promise<string[]>;
  /** Step loads: the run's VUs with a global index below n may run (each replica gets its share). */
  setActive(n: number): void;
  /** Take each replica's client count at the measured window's start or end. */
  markWindow(which: 'start' | 'end'): void;
  /** Per replica: its VUs, window transactions and client TPM, finished VUs, loss. */
  report(seconds: number): { replicas: ReplicaRunFields[]; vusFinished: number };
}

/** How the runner reaches the run's shared state and output when its VUs run elsewhere. */
export interface RemoteSink {
  shared: SharedBlocks;
  ops: readonly string[];
  /** Monitor lines (Vuser 1). */
  mon: (text: string) => void;
  /** VU output lines. */
  output: (lines: LogLine[]) => void;
}

/** Creates the RemoteVus of a run placed on replicas (the server's scale-out module). */
export type PlaceVus = (placement: import('@sledge/protocol').Placement, sink: RemoteSink) => RemoteVus;
