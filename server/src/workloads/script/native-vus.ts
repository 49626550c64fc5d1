import { availableParallelism } from 'node:os';
import { notFeedable, parseJobScripts, scriptWorkload, ScriptFeedPlan, ScriptVuClient, type Script, type ScriptInput, type ScriptNativeHandle, type ScriptRunOptions } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { VuProfile } from '../../shared/messages.js';
import type { NativeHostEnv, NativeVuHost } from '../../shared/native-host.js';
import { keepAlive, pauseOnRunWord } from '../../shared/run-word-wait.js';
import { scriptThreads } from './loop-choice.js';

/**
 * The shortest wait between two refills of the feeds (and drains of the
 * latency rings and log lines): while the VUs have not run anything yet (a
 * rate is not known), and when a VU runs through its feed fast. A feed holds
 * 256 KiB (~1,400 tpcb-like transactions, ~7,000 select-only ones).
 */
export const FEED_MS = 100;
/**
 * The longest: once the VUs run, the worker waits for a third of the time the
 * fastest VU takes to run through what its feed holds after the refill,
 * within FEED_MS..FEED_MAX_MS (nextFeedWait).
 * At the rates of a tpcb-like VU (hundreds to a few thousand a second) the
 * feed lasts seconds, so the worker wakes about once a second instead of 10
 * times (issue 37: each wake-up of a Node thread costs ~0.1-0.3 ms of CPU on a
 * small VM). Under a second, so that every one-second client tick of the main
 * thread finds at least one shipment of interval latency (vu-group.ts ships
 * on this tick): a period a little over a second would leave a tick without
 * one now and then. The wait is on the run word (shared/run-word-wait.ts): a
 * stop or an abort ends it at once.
 */
export const FEED_MAX_MS = 900;
/** Transactions evaluated for one VU in one refill at most (a feed that never fills does not hold the thread). */
const FILL_MAX = 20000;

/** Refills every VU's feed: each VU's stream and client as vu-loop.ts and the script session make them (iteration 0, client 0). */
function feeder(env: NativeHostEnv, o: ScriptRunOptions, scripts: Script[], plan: ScriptFeedPlan, handle: ScriptNativeHandle): () => number {
  const feeders = env.vus.map((a, slot) => {
    const stream = scriptWorkload.stream({ seed: env.seed, options: o, params: env.params as { scale: number }, position: a.position, activeVus: env.activeVus, client: 0 });
    const client = new ScriptVuClient(a.position - 2);
    const debug = (line: string) => env.log(a.position, line);
    return { writer: handle.feed(slot), stream, client, debug };
  });
  // Bytes each feed held after the last refill, and when: what a VU ran since is that minus its backlog now.
  const held = feeders.map(() => 0);
  let at = performance.now();
  /** Refills; returns the seconds the fastest VU takes to run what its feed now holds (Infinity while none has run anything). */
  return () => {
    const now = performance.now();
    const dt = Math.max(0.001, (now - at) / 1000);
    at = now;
    let soonest = Infinity;
    feeders.forEach((f, slot) => {
      const ran = held[slot]! - f.writer.backlog();
      if (f.writer.flush()) {
        for (let n = 0; n < FILL_MAX; n++) {
          const { op, input } = f.stream.next();
          const c = f.client.for(input as ScriptInput);
          if (!f.writer.push(op, (sink) => c.runAhead(scripts[op]!, plan, sink, f.debug))) break;
        }
      }
      held[slot] = f.writer.backlog();
      if (ran > 0) soonest = Math.min(soonest, held[slot]! / (ran / dt));
    });
    return soonest;
  };
}

/**
 * The wait before the next tick (ms): a third of the seconds the fastest VU takes to run through its refilled
 * feed, within FEED_MS..FEED_MAX_MS. Its latency ring (16,384 records) cannot fill first: a record is at least
 * 12 bytes, so a third of a 256 KiB feed is at most ~7,300 transactions.
 */
export function nextFeedWait(feedSeconds: number): number {
  if (!Number.isFinite(feedSeconds)) return FEED_MS;
  return Math.round(Math.min(FEED_MAX_MS, Math.max(FEED_MS, (feedSeconds * 1000) / 3)));
}

/**
 * Starts this worker's VUs in the driver's native script loop (script.threads
 * native threads, one per core by default, each driving its share of the VUs'
 * connections; they wait for CTRL_GO). The worker thread evaluates each VU's
 * transactions ahead with core's interpreter (ScriptClient.runAhead: the
 * same stream, seeds and client variables as the JavaScript session) into
 * the VU's feed, and drains latency records and log lines.
 */
export const startScriptNativeVus: NativeVuHost = (env: NativeHostEnv) => {
  const o = env.options as ScriptRunOptions;
  const native = env.driver.scriptNativeVu;
  if (!native) throw new SledgeError('SLEDGE_E_INTERNAL', `the ${env.target.engine} driver has no native script loop`, {});
  const loop = native.load(env.addonPath);
  if (!loop.available) throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the native VU loop does not load in a VU worker: ${loop.reason}`, { field: 'vuLoop' });
  const scripts = parseJobScripts(o);
  const why = scripts.map((s) => notFeedable(s)).find((w) => w !== undefined);
  if (why) throw new SledgeError('SLEDGE_E_INTERNAL', `the native script loop was chosen for a script it cannot run: ${why}`, {});
  const plan = new ScriptFeedPlan(scripts, (n) => native.placeholder(n));
  const ops = o.scripts.map((s) => s.name);
  const handle: ScriptNativeHandle = loop.start(env.target as never, {
    statements: plan.statements,
    ops,
    ...(env.sessionTag ? { sessionTag: env.sessionTag } : {}),
    vus: env.vus,
    threads: env.threads ?? scriptThreads(o.threads, env.vus.length, availableParallelism()),
    counters: env.shared.counters,
    states: env.shared.states,
    control: env.shared.control,
    ...(env.shared.faults ? { faults: env.shared.faults, faultVus: env.plan.vus } : {}),
  });
  const fill = feeder(env, o, scripts, plan, handle);
  const profiles: VuProfile[] = env.vus.map((a) => ({ position: a.position, elapsedMs: 0, perType: {} }));
  const onRecord = (slot: number, op: number, us: number, measuring: boolean) => {
    const name = ops[op]!;
    env.interval()[name]!.record(us);
    if (measuring) {
      const perType = profiles[slot]!.perType;
      const p = (perType[name] ??= { hist: env.newHist(), totalNs: 0 });
      p.hist.record(us);
    }
  };
  try {
    fill();
  } catch (e) {
    handle.dispose();
    throw e;
  }
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
          next(nextFeedWait(fill()));
          return;
        }
        clearInterval(alive);
        handle.drainLatency(onRecord);
        const results = handle.results();
        handle.dispose();
        results.forEach((r, slot) => {
          const p = profiles[slot]!;
          p.elapsedMs = r.elapsedMs;
          ops.forEach((name, i) => {
            const x = p.perType[name];
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
    const next = (ms: number) => void pauseOnRunWord(control, ms).then(tick, fail);
    next(FEED_MS);
  });
  return { done };
};
