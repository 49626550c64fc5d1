import type { RecordableHistogram } from 'node:perf_hooks';
import { errorClassOf, openVuSession, PooledSession, type Driver, type ErrorClass, type OpSession, type OpStream, type VuPlan, type VuWorkload } from '@sledge/core';
import type { ErrorClassName, Target } from '@sledge/protocol';
import {
  ASH_EXEC_US,
  ASH_WAIT_US,
  CTRL_GO,
  CTRL_PHASE,
  CTRL_RUN,
  FV_BACKS,
  FV_DROPS,
  F_ERROR,
  F_RETRIED_COMMIT,
  F_RETRY,
  K_COMMIT,
  K_ERROR,
  K_ROLLBACK,
  PHASE_MEASURING,
  POOL_OP0,
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
import { runArrivalSession } from './arrival-loop.js';
import { awaitStepSlot } from './step-gate.js';

/**
 * The TypeScript VU loop, for any workload: the workload gives each VU its
 * operation stream and its session on the driver; this loop runs the
 * operations, counts them in shared memory, and times them.
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
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

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

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

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

/**
 * One virtual user (or, with async scaling, one of its clients). Returns
 * false when the VU failed (raiseError, or it could not connect).
 */
async function runClient(env: VuEnv, a: VuAssignment, client: number, profile: VuProfile, onWindow: (start: number, end: number) => void): Promise<boolean> {
  const { plan, control } = env;
  const name = plan.async ? `vuser${a.position}:ac${client + 1}` : `Vuser ${a.position}`;
  const logVu = (text: string) => env.log(a.position, text);
  if (plan.async) await sleepUnlessStopped(control, client * plan.clientDelayMs);
  const c: Omit<Client, 'session'> = { a, name, logVu, errorsLogged: 0, profile, onWindow };
  for (let iter = 0; iter < plan.iterations && running(env); iter++) {
    let session: OpSession;
    try {
      session = await openSession(env, a, logVu);
    } catch (e) {
      const cls = env.driver.classifyError(e);
      // A database that refuses connections now (an outage, a failover) may be back soon: with reconnect on, keep trying.
      const retry = reconnectOn(env.plan) && errorClassOf(cls.kind) === 'connection' && running(env) ? await reconnect(env, a, name, logVu, `cannot connect (${cls.message})`, false) : null;
      if (!retry) {
        if (!running(env)) return true;
        logVu(`Error in Virtual User ${a.position}: ${e instanceof Error ? e.message : String(e)}`);
        return false;
      }
      session = retry;
    }
    Atomics.store(env.states, a.index, VU_STATE.running);
    if (plan.asyncVerbose) logVu(`${name}:logged in`);
    const cl: Client = { ...c, session };
    try {
      const stream = env.workload.stream({ seed: env.seed, options: env.options, params: env.params, position: a.position, activeVus: env.activeVus, client: iter * 100000 + client });
      if (iter === 0 && client === 0) for (const line of stream.banner?.() ?? []) logVu(line);
      const ended = await runOps(env, cl, stream);
      if (ended !== null) return ended;
    } finally {
      await cl.session.close().catch(() => undefined);
      c.errorsLogged = cl.errorsLogged;
    }
    if (iter + 1 < plan.iterations) await sleepUnlessStopped(control, plan.repeatDelayMs);
  }
  return true;
}

/** One iteration's operations; null when the iteration ran to its end (or the job stopped), else the client's end (true: ended cleanly, false: failed). */
async function runOps(env: VuEnv, c: Client, stream: OpStream): Promise<boolean | null> {
  const { plan, control, counters, workload } = env;
  const ops = workload.operations.length;
  let lastYield = performance.now();
  for (let n = 0; n < plan.opsPerIteration; n++) {
    if (!running(env)) break;
    if (plan.steps && !(await awaitStepSlot(control, env.shape, env.states, c.a.index))) break;
    const { op, input } = stream.next();
    const verbose = plan.asyncVerbose === true;
    if (verbose) c.logVu(`${c.name}:${stream.describe(op, input)}:${workload.operations[op]}`);
    if (plan.paced) {
      const keying = stream.keyingMs(op);
      if (verbose) c.logVu(`${c.name}:keytime:${workload.operations[op]}:${(keying / 1000).toFixed(3)} secs`);
      await sleepUnlessStopped(control, keying);
      if (!running(env)) break;
    }
    const measuring = Atomics.load(control, CTRL_PHASE) === PHASE_MEASURING;
    const t0 = performance.now();
    let outcome: 'commit' | 'rollback' | null = null;
    let retried = false;
    // pgbench --max-tries: the same transaction with the same input, again, on an error of a retryOn class; latency counts from the first try.
    for (let tries = 1; ; tries++) {
      try {
        const r = c.session.run(op, input);
        outcome = typeof r === 'string' ? r : await r;
        break;
      } catch (e) {
        const { ended, ec } = await operationFailed(env, c, op, e);
        if (ended !== null) return ended;
        if (!mayRetry(plan, ec, tries) || !running(env)) break;
        Atomics.add(env.faults, faultIndex(ops, c.a.index, op, F_RETRY + errorClassIndex(ec)), 1);
        retried = true;
      }
    }
    const t1 = performance.now();
    if (outcome !== null) {
      Atomics.add(counters, counterIndex(ops, c.a.index, op, outcome === 'commit' ? K_COMMIT : K_ROLLBACK), 1);
      if (env.pool && c.session instanceof PooledSession) Atomics.add(env.pool, poolIndex(ops, c.session.lastConnection(), POOL_OP0 + op), 1);
      if (retried) Atomics.add(env.faults, faultIndex(ops, c.a.index, op, F_RETRIED_COMMIT), 1);
      record(env, c, op, t0, t1, measuring);
      if (plan.mode === 'test') c.logVu(`${workload.operationTitles[op]}: ${stream.describe(op, input)}: ${outcome} (${(t1 - t0).toFixed(3)} ms)`);
    }
    if (plan.paced) {
      const think = stream.thinkMs(op);
      if (verbose) c.logVu(`${c.name}:thinktime:${workload.operations[op]}:${(think / 1000).toFixed(3)} secs`);
      await sleepUnlessStopped(control, think);
    } else if (t1 - lastYield > 50) {
      // Synchronous drivers never yield on their own: let timers and messages run.
      lastYield = t1;
      await yieldNow();
    }
  }
  return null;
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
const reconnectOn = (plan: VuPlan) => plan.reconnect !== false;

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
async function reconnect(env: VuEnv, a: VuAssignment, name: string, logVu: (t: string) => void, why: string, lost: boolean): Promise<OpSession | null> {
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

/** Run one VU (all its async clients) to the end; report state through shared memory. */
/** Wait until the main thread releases the VUs (every worker ready), or the job stops. */
async function waitForGo(control: Int32Array): Promise<void> {
  while (Atomics.load(control, CTRL_GO) === 0 && Atomics.load(control, CTRL_RUN) === RUN_GO) {
    const r = waitAsync(control, CTRL_GO, 0, 1000);
    if (r.async) await r.value;
  }
}

export async function runVu(env: VuEnv, a: VuAssignment): Promise<VuProfile> {
  const profile: VuProfile = { position: a.position, elapsedMs: 0, perType: {} };
  let wStart = Infinity;
  let wEnd = -Infinity;
  const onWindow = (s: number, e: number) => {
    if (s < wStart) wStart = s;
    if (e > wEnd) wEnd = e;
  };
  await waitForGo(env.control);
  await sleepUnlessStopped(env.control, a.startDelayMs);
  if (!running(env)) {
    Atomics.store(env.states, a.index, VU_STATE.finished);
    return profile;
  }
  Atomics.store(env.states, a.index, VU_STATE.connecting);
  env.log(0, `Vuser ${a.position}:RUNNING`);
  const clients = env.plan.clients;
  if (env.plan.async) env.log(a.position, `Started asynchronous clients:${Array.from({ length: clients }, (_, c) => `vuser${a.position}:ac${c + 1}`).join(' ')}`);
  const results = env.plan.arrival ? [await runArrivalSession(env, a, profile, onWindow)] : await Promise.all(Array.from({ length: clients }, (_, c) => runClient(env, a, c, profile, onWindow)));
  const ok = results.every(Boolean);
  Atomics.store(env.states, a.index, ok ? VU_STATE.finished : VU_STATE.failed);
  env.log(0, `Vuser ${a.position}:FINISHED ${ok ? 'SUCCESS' : 'FAILED'}`);
  profile.elapsedMs = wEnd > wStart ? wEnd - wStart : 0;
  return profile;
}
