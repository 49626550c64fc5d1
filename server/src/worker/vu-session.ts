import type { RecordableHistogram } from 'node:perf_hooks';
import { errorClassOf, openVuSession, PooledSession, type Driver, type ErrorClass, type OpSession, type VuPlan, type VuWorkload } from '@sledge/core';
import type { ErrorClassName, Target } from '@sledge/protocol';
import {
  ASH_EXEC_US,
  ASH_WAIT_US,
  CTRL_RUN,
  FV_BACKS,
  FV_DROPS,
  F_ERROR,
  K_ERROR,
  POOL_SESSIONS,
  RUN_GO,
  VU_STATE,
  counterIndex,
  errorClassIndex,
  faultIndex,
  faultVuIndex,
  poolIndex,
} from '../shared/layout.js';
import type { VuAssignment, VuProfile } from '../shared/messages.js';

/**
 * What every VU loop shares (the closed loop in vu-loop.ts, the arrival-rate
 * sessions in arrival-loop.ts): the VU's environment, its session, recording
 * an operation's latency, and handling a failed operation (count, log,
 * reconnect with backoff).
 */

/** Everything one VU loop needs from its worker. */
export interface VuEnv {
  driver: Driver;
  target: Target;
  workload: VuWorkload;
  seed: number;
  /** The workload's options and the run's parameters (RunSetup.params). */
  options: unknown;
  params: unknown;
  plan: VuPlan;
  activeVus: number;
  counters: Int32Array;
  /** Errors and retries per error class, sessions lost and reconnected (layout.ts faults). */
  faults: Int32Array;
  states: Int32Array;
  /** Client-side ASH accumulators (µs) for engines whose sessions report lock waits. */
  ash: Int32Array;
  control: Int32Array;
  /** Run shapes (step loads, arrival rate): shared/shape-layout.ts. */
  shape: Int32Array;
  /** Connect pool counters (layout.ts `pool`), when the target has a pool. */
  pool?: Int32Array;
  /** Interval histograms (µs) by operation name, shared by the worker's VUs, shipped and replaced every second. */
  interval: Record<string, RecordableHistogram>;
  /** A new histogram for a measured-window profile (perf_hooks, or a SparseHist on a replica). */
  newHist: () => RecordableHistogram;
  log: (vu: number, text: string) => void;
  /** The job's session tag: sessions are named vuSessionName(position, tag) so the job's ASH knows its own VUs. */
  sessionTag?: string;
}

export const running = (env: VuEnv) => Atomics.load(env.control, CTRL_RUN) === RUN_GO;

type WaitAsync = (a: Int32Array, i: number, v: number, t: number) => { async: false; value: string } | { async: true; value: Promise<string> };
/** Atomics.waitAsync (V8; typed in lib ES2024, which Node 20 does not fully implement). */
export const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** Sleep that ends early when the job is stopped (Atomics.notify on the control word). */
export async function sleepUnlessStopped(control: Int32Array, ms: number): Promise<void> {
  if (ms <= 0 || Atomics.load(control, CTRL_RUN) !== RUN_GO) return;
  const end = performance.now() + ms;
  while (Atomics.load(control, CTRL_RUN) === RUN_GO) {
    const left = end - performance.now();
    if (left <= 0) return;
    const r = waitAsync(control, CTRL_RUN, RUN_GO, left);
    if (r.async) await r.value;
    else return;
  }
}

/** One client of one VU: its identity, session and error count while it runs its operations. */
export interface Client {
  a: VuAssignment;
  name: string;
  session: OpSession;
  logVu: (text: string) => void;
  errorsLogged: number;
  profile: VuProfile;
  onWindow: (start: number, end: number) => void;
}

/** The VU's session: the workload's, or over a connect pool one per pool connection (each counted as opened). */
export async function openSession(env: VuEnv, a: VuAssignment, logVu: (t: string) => void): Promise<OpSession> {
  const s = await openVuSession(env.workload, env.driver, env.target, { vu: a.position, log: logVu, ...(env.sessionTag ? { tag: env.sessionTag } : {}) }, env.options);
  if (env.pool && s instanceof PooledSession) {
    for (let i = 0; i < s.connections; i++) Atomics.add(env.pool, poolIndex(env.workload.operations.length, i, POOL_SESSIONS), 1);
  }
  return s;
}

/** A completed operation's latency: the interval histogram, client-side ASH, and the measured-window profile. */
export function record(env: VuEnv, c: Client, op: number, t0: number, t1: number, measuring: boolean): void {
  const opName = env.workload.operations[op]!;
  const us = Math.max(1, Math.round((t1 - t0) * 1000));
  env.interval[opName]!.record(us);
  if (c.session.lastWaitMs) {
    Atomics.add(env.ash, c.a.index * 2 + ASH_EXEC_US, us);
    Atomics.add(env.ash, c.a.index * 2 + ASH_WAIT_US, Math.min(us, Math.round(c.session.lastWaitMs() * 1000)));
  }
  if (measuring) {
    const p = (c.profile.perType[opName] ??= { hist: env.newHist(), totalNs: 0 });
    p.hist.record(us);
    p.totalNs += (t1 - t0) * 1e6;
    c.onWindow(t0, t1);
  }
}

/** An operation threw: count it (errors, and by class), then handle it (opFailed: log, end the VU, or reconnect). */
export async function operationFailed(env: VuEnv, c: Client, op: number, e: unknown): Promise<{ ended: boolean | null; ec: ErrorClassName }> {
  const ops = env.workload.operations.length;
  Atomics.add(env.counters, counterIndex(ops, c.a.index, op, K_ERROR), 1);
  const cls = env.driver.classifyError(e);
  const ec = errorClassOf(cls.kind);
  Atomics.add(env.faults, faultIndex(ops, c.a.index, op, F_ERROR + errorClassIndex(ec)), 1);
  return { ended: await opFailed(env, c, op, cls, ec), ec };
}

/** Reconnect lost sessions: the run's option, on unless set false. */
export const reconnectOn = (plan: VuPlan) => plan.reconnect !== false;

/** May an operation that failed with class `ec` on try `tries` run again (maxTries, retryOn)? */
export function mayRetry(plan: Pick<VuPlan, 'maxTries' | 'retryOn'>, ec: ErrorClassName, tries: number): boolean {
  return tries < (plan.maxTries ?? 1) && (plan.retryOn ?? ['serialization']).includes(ec);
}

/**
 * An operation threw: log it (bounded), end the VU under raiseError; on a
 * lost connection reconnect (close the old session first, back off), or end
 * the VU when reconnect is off. Null: carry on.
 */
async function opFailed(env: VuEnv, c: Client, op: number, cls: ErrorClass, ec: ErrorClassName): Promise<boolean | null> {
  if (env.plan.raiseError) {
    c.logVu(`Error in Virtual User ${c.a.position}: ${env.workload.operationLabels[op]}: ${cls.message}`);
    return false;
  }
  if (c.errorsLogged < 100 || c.errorsLogged % 1000 === 0) {
    c.logVu(`${env.workload.operationTitles[op]} Procedure Error (${cls.kind}${cls.code ? ' ' + cls.code : ''}): ${cls.message}${c.errorsLogged === 99 ? ' (further errors are counted, 1 line per 1000 shown)' : ''}`);
  }
  c.errorsLogged++;
  if (ec !== 'connection') return null;
  const ops = env.workload.operations.length;
  Atomics.add(env.faults, faultVuIndex(env.plan.vus, ops, c.a.index, FV_DROPS), 1);
  Atomics.store(env.states, c.a.index, VU_STATE.connecting);
  await closeQuietly(c.session);
  if (!reconnectOn(env.plan)) {
    c.logVu(`${c.name}: connection lost and tprocc.reconnect is off: the virtual user ends`);
    return false;
  }
  const reconnected = await reconnect(env, c.a, c.name, c.logVu, 'connection lost', true);
  if (!reconnected) return !running(env);
  c.session = reconnected;
  return null;
}

/** Close a session whose connection may be dead: never throws, never waits more than a second. */
async function closeQuietly(s: OpSession): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([s.close().catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, 1000)))]);
  clearTimeout(timer);
}

/** First wait and cap of the reconnect backoff (ms): 0.5, 1, 2, 4, 5, 5 ... s, each +-25% so that sessions do not come back in lockstep. */
export const BACKOFF_FIRST_MS = 500;
export const BACKOFF_MAX_MS = 5000;
export const backoffMs = (attempt: number, jitter = Math.random()): number => Math.round(Math.min(BACKOFF_FIRST_MS * 2 ** attempt, BACKOFF_MAX_MS) * (0.75 + 0.5 * jitter));

/** Open a new session with bounded exponential backoff until it works or the job stops (null). A lost session that comes back counts as back. */
export async function reconnect(env: VuEnv, a: VuAssignment, name: string, logVu: (t: string) => void, why: string, lost: boolean): Promise<OpSession | null> {
  const started = performance.now();
  logVu(`${name}: ${why}, reconnecting`);
  for (let attempt = 0; running(env); attempt++) {
    await sleepUnlessStopped(env.control, backoffMs(attempt));
    if (!running(env)) return null;
    try {
      const s = await openSession(env, a, logVu);
      logVu(`${name}: reconnected after ${((performance.now() - started) / 1000).toFixed(1)} s`);
      if (lost) Atomics.add(env.faults, faultVuIndex(env.plan.vus, env.workload.operations.length, a.index, FV_BACKS), 1);
      Atomics.store(env.states, a.index, VU_STATE.running);
      return s;
    } catch {
      // still down: back off further
    }
  }
  return null;
}
