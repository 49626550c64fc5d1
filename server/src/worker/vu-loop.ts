import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { KEYING_SECONDS, VuWorkload, thinkSeconds, tproccHooks, type Driver, type TxOutcome, type TproccTarget, type VuSession } from '@sledge/core';
import { TX_PROC, type TxType } from '@sledge/protocol';
import {
  ASH_EXEC_US,
  ASH_WAIT_US,
  CTRL_GO,
  CTRL_PHASE,
  CTRL_RUN,
  K_COMMIT,
  K_ERROR,
  K_ROLLBACK,
  PHASE_MEASURING,
  RUN_GO,
  TX_INDEX,
  VU_STATE,
  counterIndex,
} from './layout.js';
import type { VuAssignment, VuProfile, VuRunOptions } from './messages.js';

/** Everything one VU loop needs from its worker. */
export interface VuEnv {
  driver: Driver;
  /** The target with the run's TPROC-C schema options (tproccTarget). */
  target: TproccTarget;
  seed: number;
  warehouses: number;
  activeVus: number;
  opts: VuRunOptions;
  counters: Int32Array;
  states: Int32Array;
  /** Client-side ASH accumulators (µs) for engines whose sessions report lock waits. */
  ash: Int32Array;
  control: Int32Array;
  /** Interval histograms (µs) shared by the worker's VUs, shipped and replaced every second. */
  interval: Record<TxType, RecordableHistogram>;
  log: (vu: number, text: string) => void;
}

const DESCRIBE: Record<TxType, string> = {
  neworder: 'New Order',
  payment: 'Payment',
  delivery: 'Delivery',
  stocklevel: 'Stock Level',
  orderstatus: 'Order Status',
};

const running = (env: VuEnv) => Atomics.load(env.control, CTRL_RUN) === RUN_GO;

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

function inputSummary(t: TxType, i: Record<string, unknown>): string {
  switch (t) {
    case 'neworder':
      return `w_id ${String(i['w_id'])} d_id ${String(i['d_id'])} c_id ${String(i['c_id'])} ol_cnt ${String(i['ol_cnt'])}${i['rollback'] ? ' (invalid item: rollback)' : ''}`;
    case 'payment':
      return `w_id ${String(i['w_id'])} d_id ${String(i['d_id'])} c_w_id ${String(i['c_w_id'])} ${i['byname'] ? `c_last ${String(i['c_last'])}` : `c_id ${String(i['c_id'])}`} amount ${String(i['amount'])}`;
    case 'delivery':
      return `w_id ${String(i['w_id'])} carrier ${String(i['carrier_id'])}`;
    case 'stocklevel':
      return `w_id ${String(i['w_id'])} d_id ${String(i['d_id'])} threshold ${String(i['threshold'])}`;
    case 'orderstatus':
      return `w_id ${String(i['w_id'])} d_id ${String(i['d_id'])} ${i['byname'] ? `c_last ${String(i['c_last'])}` : `c_id ${String(i['c_id'])}`}`;
  }
}

/**
 * One virtual user (or, with async scaling, one of its clients). Returns
 * false when the VU failed (raiseError, or it could not connect).
 */
async function runClient(env: VuEnv, a: VuAssignment, client: number, profile: VuProfile, onWindow: (start: number, end: number) => void): Promise<boolean> {
  const { opts, driver, target, counters, control } = env;
  const name = opts.asyncScale ? `vuser${a.position}:ac${client + 1}` : `Vuser ${a.position}`;
  const logVu = (text: string) => env.log(a.position, text);
  if (opts.asyncScale) await sleepUnlessStopped(control, client * opts.asyncDelayMs);
  let errorsLogged = 0;
  for (let iter = 0; iter < opts.iterations && running(env); iter++) {
    let session: VuSession;
    try {
      session = await tproccHooks(driver).openVu(target, { vu: a.position, log: logVu });
    } catch (e) {
      logVu(`Error in Virtual User ${a.position}: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
    Atomics.store(env.states, a.index, VU_STATE.running);
    try {
      const wl = new VuWorkload(env.seed, {
        warehouses: env.warehouses,
        position: a.position,
        activeVus: env.activeVus,
        allWarehouse: opts.allWarehouse,
        mix: opts.mix,
        client: iter * 100000 + client,
      });
      if (iter === 0 && client === 0) {
        if (opts.driver === 'timed') logVu(`Processing ${opts.totalIterations} transactions with output suppressed...`);
        if (wl.warehouses) logVu(`Assigned ${wl.warehouses.length} WIDs = ${wl.warehouses.join(' ')} based on VU count ${env.activeVus}, Warehouses = ${env.warehouses} out of ${env.warehouses}`);
      }
      let lastYield = performance.now();
      for (let n = 0; n < opts.totalIterations; n++) {
        if (!running(env)) break;
        const t = wl.nextType();
        const input = wl.input(t);
        if (opts.keyAndThink) {
          await sleepUnlessStopped(control, KEYING_SECONDS[t] * 1000);
          if (!running(env)) break;
        }
        const tx = TX_INDEX[t];
        const measuring = Atomics.load(control, CTRL_PHASE) === PHASE_MEASURING;
        const t0 = performance.now();
        let outcome: TxOutcome | null = null;
        try {
          const r = session.run(t, input);
          outcome = typeof r === 'string' ? r : await r;
        } catch (e) {
          Atomics.add(counters, counterIndex(a.index, tx, K_ERROR), 1);
          const cls = driver.classifyError(e);
          if (opts.raiseError) {
            logVu(`Error in Virtual User ${a.position}: ${TX_PROC[t]}: ${cls.message}`);
            return false;
          }
          if (errorsLogged < 100 || errorsLogged % 1000 === 0) {
            logVu(`${DESCRIBE[t]} Procedure Error (${cls.kind}${cls.code ? ' ' + cls.code : ''}): ${cls.message}${errorsLogged === 99 ? ' (further errors are counted, 1 line per 1000 shown)' : ''}`);
          }
          errorsLogged++;
          if (cls.kind === 'connection') {
            const reconnected = await reconnect(env, a, name, logVu);
            if (!reconnected) return !running(env);
            session = reconnected;
          }
        }
        const t1 = performance.now();
        if (outcome !== null) {
          Atomics.add(counters, counterIndex(a.index, tx, outcome === 'commit' ? K_COMMIT : K_ROLLBACK), 1);
          const us = Math.max(1, Math.round((t1 - t0) * 1000));
          env.interval[t].record(us);
          if (session.lastWaitMs) {
            Atomics.add(env.ash, a.index * 2 + ASH_EXEC_US, us);
            Atomics.add(env.ash, a.index * 2 + ASH_WAIT_US, Math.min(us, Math.round(session.lastWaitMs() * 1000)));
          }
          if (measuring) {
            let p = profile.perType[t];
            if (!p) p = profile.perType[t] = { hist: createHistogram(), totalNs: 0 };
            p.hist.record(us);
            p.totalNs += (t1 - t0) * 1e6;
            onWindow(t0, t1);
          }
          if (opts.driver === 'test') logVu(`${DESCRIBE[t]}: ${inputSummary(t, input as unknown as Record<string, unknown>)}: ${outcome} (${(t1 - t0).toFixed(3)} ms)`);
        }
        if (opts.keyAndThink) await sleepUnlessStopped(control, thinkSeconds(wl.rng, t) * 1000);
        else if (t1 - lastYield > 50) {
          // Synchronous drivers never yield on their own: let timers and messages run.
          lastYield = t1;
          await yieldNow();
        }
      }
    } finally {
      await session.close().catch(() => undefined);
    }
    if (iter + 1 < opts.iterations) await sleepUnlessStopped(control, opts.repeatDelayMs);
  }
  return true;
}

async function reconnect(env: VuEnv, a: VuAssignment, name: string, logVu: (t: string) => void): Promise<VuSession | null> {
  const started = performance.now();
  logVu(`${name}: connection lost, reconnecting`);
  let wait = 500;
  while (running(env)) {
    await sleepUnlessStopped(env.control, wait);
    if (!running(env)) return null;
    try {
      const s = await tproccHooks(env.driver).openVu(env.target, { vu: a.position, log: logVu });
      logVu(`${name}: reconnected after ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return s;
    } catch {
      wait = Math.min(wait * 2, 5000);
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
  const clients = env.opts.asyncScale ? env.opts.asyncClients : 1;
  const results = await Promise.all(Array.from({ length: clients }, (_, c) => runClient(env, a, c, profile, onWindow)));
  const ok = results.every(Boolean);
  Atomics.store(env.states, a.index, ok ? VU_STATE.finished : VU_STATE.failed);
  env.log(0, `Vuser ${a.position}:FINISHED ${ok ? 'SUCCESS' : 'FAILED'}`);
  profile.elapsedMs = wEnd > wStart ? wEnd - wStart : 0;
  return profile;
}
