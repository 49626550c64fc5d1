import { keyThinkOf, tproccTarget, type NativeVuHandle, type TproccParams } from '@sledge/core';
import { SledgeError, TX_TYPES, type TproccOptions, type TxType } from '@sledge/protocol';
import type { VuProfile } from '../../shared/messages.js';
import type { NativeHostEnv, NativeVuHost } from '../../shared/native-host.js';
import { keepAlive, pauseOnRunWord } from '../../shared/run-word-wait.js';

/**
 * How often the worker drains the native threads' latency rings and log
 * lines. Every wake-up of a Node thread costs ~0.1-0.3 ms of CPU on a small
 * VM (timers, async hooks, the event loop), so this is the only timer of a
 * native worker (logs and interval latency ride on it) and it ticks once a
 * second, as the main thread's samplers do: a ring holds RING_CAPACITY
 * (16,384) records, 16,384 transactions per second per VU at this pace (a
 * VU on this machine does ~150-800). It ticked 4 times a second with rings
 * of 8,192 until issue 37's MariaDB client-CPU work (docs/benchmarks.md).
 * The wait between ticks is on the run word (shared/run-word-wait.ts): a
 * stop or an abort wakes the worker at once, and from then on it ticks
 * every STOPPING_POLL_MS until the threads have ended.
 */
export const POLL_MS = 1000;

/**
 * Starts this worker's VUs in the native loop (one native thread each; they
 * wait for CTRL_GO themselves). The worker thread only polls (POLL_MS):
 * latency records into the interval histograms and the per-VU window
 * profiles (as vu-session.ts records them), log lines into the worker's batches.
 */
export const startNativeVus: NativeVuHost = (env: NativeHostEnv) => {
  const { driver, target } = env;
  const opts = env.options as TproccOptions;
  const { warehouses } = env.params as TproccParams;
  const native = driver.workloads.tprocc?.nativeVu;
  if (!native) throw new SledgeError('SLEDGE_E_INTERNAL', `the ${target.engine} driver has no native VU loop`, {});
  const loop = native.load(env.addonPath);
  if (!loop.available) throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the native VU loop does not load in a VU worker: ${loop.reason}`, { field: 'vuLoop' });
  const handle: NativeVuHandle = loop.start(tproccTarget(target, opts.schema), {
    seed: env.seed,
    warehouses,
    activeVus: env.activeVus,
    allWarehouse: opts.allWarehouse,
    mix: opts.mix,
    totalIterations: opts.totalIterations,
    iterations: opts.iterations,
    repeatDelayMs: opts.repeatDelayMs,
    keyAndThink: opts.keyAndThink,
    keyThink: Object.fromEntries(TX_TYPES.map((t) => [t, keyThinkOf(opts, t)])),
    raiseError: opts.raiseError,
    testDriver: opts.driver === 'test',
    ...(env.sessionTag ? { sessionTag: env.sessionTag } : {}),
    vus: env.vus,
    counters: env.shared.counters,
    states: env.shared.states,
    control: env.shared.control,
    reconnect: opts.reconnect ?? true,
    ...(env.shared.faults ? { faults: env.shared.faults, faultVus: env.plan.vus } : {}),
  });
  const profiles: VuProfile[] = env.vus.map((a) => ({ position: a.position, elapsedMs: 0, perType: {} }));
  const onRecord = (slot: number, t: TxType, us: number, measuring: boolean) => {
    env.interval()[t]!.record(us);
    if (measuring) {
      const perType = profiles[slot]!.perType;
      const p = (perType[t] ??= { hist: env.newHist(), totalNs: 0 });
      p.hist.record(us);
    }
  };
  const control = env.shared.control;
  const alive = keepAlive();
  const done = new Promise<VuProfile[]>((resolve, reject) => {
    const tick = () => {
      try {
        handle.drainLatency(onRecord);
        const { live, logs } = handle.poll();
        for (const l of logs) env.log(l.vu, l.text);
        env.onTick();
        if (live > 0) {
          next();
          return;
        }
        clearInterval(alive);
        // Records pushed just before the last thread ended.
        handle.drainLatency(onRecord);
        const results = handle.results();
        handle.dispose();
        results.forEach((r, slot) => {
          const p = profiles[slot]!;
          p.elapsedMs = r.elapsedMs;
          TX_TYPES.forEach((t, i) => {
            const x = p.perType[t];
            if (x) x.totalNs = r.totalNs[i]!;
          });
        });
        resolve(profiles);
      } catch (e) {
        fail(e);
      }
    };
    const fail = (e: unknown) => {
      clearInterval(alive);
      handle.dispose();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    const next = () => void pauseOnRunWord(control, POLL_MS).then(tick, fail);
    next();
  });
  return { done };
};
