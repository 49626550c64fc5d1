import type { RecordableHistogram } from 'node:perf_hooks';
import type { Driver, VuPlan } from '@sledge/core';
import type { Target } from '@sledge/protocol';
import type { VuAssignment, VuProfile } from './messages.js';

/** What a native VU host (a loop outside JavaScript) gets from its VU worker. */
export interface NativeHostEnv {
  driver: Driver;
  target: Target;
  seed: number;
  /** The workload's options and the run's parameters (RunSetup.params). */
  options: unknown;
  params: unknown;
  plan: VuPlan;
  activeVus: number;
  vus: VuAssignment[];
  /** Native threads for these VUs, as the runner counted them (NativeLoop.threads); absent: the host decides (a replica). */
  threads?: number;
  /** The job's session tag: the loop names its sessions sledge-vu-<position>~<tag>. */
  sessionTag?: string;
  /** faults: errors by class and sessions lost/back (layout.ts), for loops that count them. */
  shared: { counters: Int32Array; states: Int32Array; control: Int32Array; faults?: Int32Array };
  /** The worker's interval latency by operation name (value, count records, shipped and reset every second). */
  interval: () => Record<string, RecordableHistogram>;
  /** A new histogram for a measured-window profile (perf_hooks, or a SparseHist on a replica). */
  newHist: () => RecordableHistogram;
  log: (vu: number, text: string) => void;
  /** Called after every drain (the worker flushes logs and ships latency from here). */
  onTick: () => void;
  addonPath?: string;
}

/** Starts a worker's VUs in a native loop; `done` resolves with their measured-window profiles once every VU ended. */
export type NativeVuHost = (env: NativeHostEnv) => { done: Promise<VuProfile[]> };
