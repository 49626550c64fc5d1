import type { VuAssignment, VuProfile } from '../shared/messages.js';
import { CTRL_PHASE, K_COMMIT, K_ROLLBACK, PHASE_MEASURING, VU_STATE, counterIndex } from '../shared/layout.js';
import { SH_DROPPED, SH_EPOCH_F64, SH_IN_USE, SH_NEXT, SH_STARTED, raisePeak, readSegment, segmentArrivalTime, segmentArrivalsBy } from '../shared/shape-layout.js';
import { arrivalTime, arrivalsBy } from '@sledge/core';
import { openSession, operationFailed, record, running, sleepUnlessStopped, type Client, type VuEnv } from './vu-session.js';

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

/** Move the next arrival to claim up to `k` (arrivals before it are past due); returns how many were skipped. */
function skipPastDue(shape: Int32Array, k: number): number {
  let next = Atomics.load(shape, SH_NEXT);
  while (next < k) {
    const was = Atomics.compareExchange(shape, SH_NEXT, next, k);
    if (was === next) return k - next;
    next = was;
  }
  return 0;
}

/**
 * Arrival-rate mode (open model): one session of the pool. A free session
 * claims the next arrival of the shared schedule (SH_NEXT), waits for its due
 * time and runs the next operation of its stream then. A session that claims
 * an arrival already past due by more than the plan's slack was not free when
 * it was due (every free session claims at once): the arrival is dropped,
 * with every other arrival already past due, and the session takes the next
 * one on time.
 * Latency counts from the due time, not from when the session got to it, so
 * a slow database shows in the latency (no coordinated omission).
 *
 * Returns false when the session failed (could not connect, or raiseError).
 */
export async function runArrivalSession(env: VuEnv, a: VuAssignment, profile: VuProfile, onWindow: (start: number, end: number) => void): Promise<boolean> {
  const { plan, control, counters, workload } = env;
  const p = plan.arrival!;
  const shape = env.shape;
  const ops = workload.operations.length;
  const logVu = (text: string) => env.log(a.position, text);
  let c: Client;
  try {
    c = { a, name: `Vuser ${a.position}`, session: await openSession(env, a, logVu), logVu, errorsLogged: 0, profile, onWindow };
  } catch (e) {
    logVu(`Error in Virtual User ${a.position}: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
  // The schedule's start on this thread's performance clock.
  const epoch = new Float64Array(shape.buffer)[SH_EPOCH_F64]! - performance.timeOrigin;
  const stream = workload.stream({ seed: env.seed, options: env.options, params: env.params, position: a.position, activeVus: env.activeVus, client: 0 });
  let lastYield = performance.now();
  // A steered schedule (capacity search) is read from the runner's segment; a planned one is fixed.
  const dueSec = p.steered ? (k: number) => segmentArrivalTime(readSegment(shape), k) : (k: number) => arrivalTime(p, k);
  const dueBy = p.steered ? (sec: number) => segmentArrivalsBy(readSegment(shape), sec) : (sec: number) => arrivalsBy(p, sec);
  try {
    Atomics.store(env.states, a.index, VU_STATE.idle);
    while (running(env)) {
      const k = Atomics.add(shape, SH_NEXT, 1);
      const due = epoch + dueSec(k) * 1000;
      let now = performance.now();
      if (now > due + p.dropSlackMs) {
        // Every session was busy when it was due: it is dropped, and so is every other arrival already due,
        // so that this session takes the next one on time (as an open model does) rather than one just inside the slack.
        Atomics.add(shape, SH_DROPPED, 1 + skipPastDue(shape, Math.ceil(dueBy((now - epoch) / 1000))));
        if (now - lastYield > 50) {
          lastYield = now;
          await yieldNow();
        }
        continue;
      }
      if (due > now) await sleepUnlessStopped(control, due - now);
      if (!running(env)) break;
      const { op, input } = stream.next();
      raisePeak(shape, Atomics.add(shape, SH_IN_USE, 1) + 1);
      Atomics.add(shape, SH_STARTED, 1);
      Atomics.store(env.states, a.index, VU_STATE.running);
      const measuring = Atomics.load(control, CTRL_PHASE) === PHASE_MEASURING;
      let outcome: 'commit' | 'rollback' | null = null;
      let ended: boolean | null = null;
      try {
        const r = c.session.run(op, input);
        outcome = typeof r === 'string' ? r : await r;
      } catch (e) {
        ended = (await operationFailed(env, c, op, e)).ended;
      } finally {
        Atomics.sub(shape, SH_IN_USE, 1);
        Atomics.store(env.states, a.index, VU_STATE.idle);
      }
      if (ended !== null) return ended;
      now = performance.now();
      if (outcome !== null) {
        Atomics.add(counters, counterIndex(ops, a.index, op, outcome === 'commit' ? K_COMMIT : K_ROLLBACK), 1);
        // Latency from the intended start.
        record(env, c, op, Math.min(due, now), now, measuring);
      }
      if (now - lastYield > 50) {
        // Synchronous drivers never yield on their own: let timers and messages run.
        lastYield = now;
        await yieldNow();
      }
    }
  } finally {
    await c.session.close().catch(() => undefined);
  }
  return true;
}
