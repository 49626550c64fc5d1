import { errorClassOf, PooledSession, type OpSession, type OpStream } from '@sledge/core';
import {
  CTRL_GO,
  CTRL_PHASE,
  CTRL_RUN,
  F_RETRIED_COMMIT,
  F_RETRY,
  K_COMMIT,
  K_ROLLBACK,
  PHASE_MEASURING,
  POOL_OP0,
  RUN_GO,
  VU_STATE,
  counterIndex,
  errorClassIndex,
  faultIndex,
  poolIndex,
} from '../shared/layout.js';
import type { VuAssignment, VuProfile } from '../shared/messages.js';
import { runArrivalSession } from './arrival-loop.js';
import { awaitStepSlot } from './step-gate.js';
import { mayRetry, openSession, operationFailed, reconnect, reconnectOn, record, running, sleepUnlessStopped, waitAsync, type Client, type VuEnv } from './vu-session.js';

/**
 * The TypeScript VU loop, for any workload: the workload gives each VU its
 * operation stream and its session on the driver; this loop runs the
 * operations, counts them in shared memory, and times them.
 */

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

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

/** Wait until the main thread releases the VUs (every worker ready), or the job stops. */
async function waitForGo(control: Int32Array): Promise<void> {
  while (Atomics.load(control, CTRL_GO) === 0 && Atomics.load(control, CTRL_RUN) === RUN_GO) {
    const r = waitAsync(control, CTRL_GO, 0, 1000);
    if (r.async) await r.value;
  }
}

/** Run one VU (all its async clients) to the end; report state through shared memory. */
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
