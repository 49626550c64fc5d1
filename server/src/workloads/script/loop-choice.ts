import { notFeedable, parseJobScripts, type Driver, type ScriptRunOptions } from '@sledge/core';
import { ENGINE_DISPLAY, SledgeError, type Target } from '@sledge/protocol';
import type { VuLoopPreference } from '../../shared/messages.js';
import type { LoopChoice } from '../../runner/vu-run.js';

/**
 * Which loop runs a script run's VUs (docs/script-workload.md, "The native
 * loop"). The driver's native script loop (Driver.scriptNativeVu) when the
 * preference allows it, every script can be evaluated ahead (no \gset,
 * \aset, \sleep or pipeline: core notFeedable), the run is a plain timed one
 * (no step loads, arrival rate or connect pool), the target is one the loop
 * implements and its addon loads; JavaScript otherwise, with the reason.
 * Preference 'native' turns a missing addon into an error, as for TPROC-C;
 * scripts or options the loop does not cover still run in JavaScript.
 */
export function chooseScriptLoop(pref: VuLoopPreference, driver: Driver, target: Target, o: ScriptRunOptions, addonPath?: string): LoopChoice {
  const js = (reason: string): LoopChoice => ({ loop: 'typescript', line: `Virtual users run in JavaScript (${reason})` });
  if (pref === 'typescript') return js('vuLoop is typescript');
  const native = driver.scriptNativeVu;
  if (!native) return js(`the ${ENGINE_DISPLAY[target.engine]} driver has no native script loop`);
  if (o.steps !== undefined) return js('step loads (script.steps) run in the JavaScript loop');
  if (o.arrival !== undefined) return js('arrival-rate mode (script.arrival) runs in the JavaScript loop');
  if ((target as { pool?: unknown }).pool) return js('a connect pool (target.pool) runs in the JavaScript loop');
  const unsupported = native.unsupported?.(target as never);
  if (unsupported) return js(unsupported);
  for (const s of parseJobScripts(o)) {
    const why = notFeedable(s);
    if (why) return js(`${why}: a script that reads the database into variables, sleeps or pipelines runs in JavaScript`);
  }
  const loaded = native.load(addonPath);
  if (!loaded.available) {
    if (pref === 'native') {
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the native VU loop is not available: ${loaded.reason}; or set vuLoop (SLEDGE_VU_LOOP) to auto`, { field: 'vuLoop' });
    }
    return js(loaded.reason);
  }
  return { loop: 'native', line: `Virtual users run in ${native.name} (the worker thread evaluates each VU's scripts ahead)` };
}

/**
 * The native loop's threads in a VU worker thread hosting `hosted` VUs:
 * script.threads (pgbench's -j; absent or 0: one per core), never more than
 * the VUs, at least one.
 */
export function scriptThreads(threads: number | undefined, hosted: number, cores: number): number {
  return Math.max(1, Math.min(hosted, threads || cores));
}
