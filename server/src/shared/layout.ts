import { ERROR_CLASSES, type ErrorClassName } from '@sledge/protocol';
/**
 * Shared memory between the main thread and VU workers. Hot counters are
 * written with Atomics by the VUs and read every second by the main thread
 * without any message. Sized by the workload's operations (`ops`: how many
 * the workload has, Workload.operations.length).
 *
 * counters: Int32Array [vu][op][kind], kind = commit | rollback | error
 * states:   Int32Array [vu] = VuStateCode
 * control:  Int32Array [CTRL_*]
 * ash:      Int32Array [vu][ASH_EXEC_US | ASH_WAIT_US], microseconds accumulated
 *           by engines sampled client-side (VuSession.lastWaitMs), read as deltas
 * pool:     Int32Array [connection][POOL_SESSIONS | POOL_OP0 + op], only with a connect pool
 *           (target.pool): sessions opened on each pool connection, and operations
 *           (commits + rollbacks) run on it, summed over every VU
 * faults:   Int32Array [vu][op][F_*] errors and retries per error class
 *           (ERROR_CLASSES order) and commits that needed a retry, then
 *           [vu][FV_DROPS | FV_BACKS]: sessions lost and reconnected
 */
import { allocShape } from './shape-layout.js';

export const KINDS = 3;
export const K_COMMIT = 0;
export const K_ROLLBACK = 1;
export const K_ERROR = 2;

export const VU_STATE = { idle: 0, connecting: 1, running: 2, finished: 3, failed: 4 } as const;
export const VU_STATE_NAMES = ['idle', 'connecting', 'running', 'finished', 'failed'] as const;

/** control[CTRL_RUN]: 0 = run, 1 = stop after the current transaction, 2 = abort now. */
export const CTRL_RUN = 0;
/** control[CTRL_PHASE]: 0 = rampup (not measured), 1 = measuring, 2 = after the window. */
export const CTRL_PHASE = 1;
/** control[CTRL_GO]: 0 until every worker has loaded its driver; then VUs start (their start delays count from here). */
export const CTRL_GO = 2;
export const CTRL_SIZE = 4;
export const RUN_GO = 0;
export const RUN_STOP = 1;
export const RUN_ABORT = 2;
export const PHASE_RAMPUP = 0;
export const PHASE_MEASURING = 1;
export const PHASE_DONE = 2;

export interface SharedBlocks {
  counters: SharedArrayBuffer;
  faults: SharedArrayBuffer;
  states: SharedArrayBuffer;
  control: SharedArrayBuffer;
  ash: SharedArrayBuffer;
  /** Run shapes: step loads and arrival rate (shape-layout.ts). */
  shape: SharedArrayBuffer;
  pool?: SharedArrayBuffer;
}
export const POOL_SESSIONS = 0;
export const POOL_OP0 = 1;
/** Index of (connection, slot) in the pool block of a workload with `ops` operations. */
export const poolIndex = (ops: number, conn: number, slot: number): number => conn * (ops + 1) + slot;
export const ASH_EXEC_US = 0;
export const ASH_WAIT_US = 1;

export function allocShared(vus: number, ops: number, poolConnections = 0): SharedBlocks {
  return {
    ...(poolConnections > 0 ? { pool: new SharedArrayBuffer(poolConnections * (ops + 1) * 4) } : {}),
    counters: new SharedArrayBuffer(vus * ops * KINDS * 4),
    faults: new SharedArrayBuffer((vus * ops * F_SLOTS + vus * FV_SLOTS) * 4),
    states: new SharedArrayBuffer(vus * 4),
    control: new SharedArrayBuffer(CTRL_SIZE * 4),
    ash: new SharedArrayBuffer(vus * 2 * 4),
    shape: allocShape(vus),
  };
}

/** Index of (VU, operation, kind) in the counters of a workload with `ops` operations. */
export const counterIndex = (ops: number, vuIndex: number, op: number, kind: number): number => (vuIndex * ops + op) * KINDS + kind;

/** Totals per operation and kind over all VUs. */
export function sumCounters(c: Int32Array, vus: number, ops: number): Int32Array {
  const n = ops * KINDS;
  const out = new Int32Array(n);
  for (let v = 0; v < vus; v++) {
    const base = v * n;
    for (let i = 0; i < n; i++) out[i]! += Atomics.load(c, base + i);
  }
  return out;
}

/** Error classes in the faults block, in protocol's ERROR_CLASSES order. */
export const F_CLASSES = ERROR_CLASSES.length;
/** faults[vu][op][F_ERROR + class]: errors; [F_RETRY + class]: retries; [F_RETRIED_COMMIT]: commits (or rollbacks) after at least one retry. */
export const F_ERROR = 0;
export const F_RETRY = F_CLASSES;
export const F_RETRIED_COMMIT = 2 * F_CLASSES;
export const F_SLOTS = 2 * F_CLASSES + 1;
/** Per VU after the [vu][op] part: sessions lost, sessions reconnected. */
export const FV_DROPS = 0;
export const FV_BACKS = 1;
export const FV_SLOTS = 2;

export const faultIndex = (ops: number, vuIndex: number, op: number, slot: number): number => (vuIndex * ops + op) * F_SLOTS + slot;
export const faultVuIndex = (vus: number, ops: number, vuIndex: number, slot: number): number => vus * ops * F_SLOTS + vuIndex * FV_SLOTS + slot;
export const errorClassIndex = (cls: ErrorClassName): number => ERROR_CLASSES.indexOf(cls);
