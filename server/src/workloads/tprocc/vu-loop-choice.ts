import type { Driver } from '@sledge/core';
import { ENGINE_DISPLAY, SledgeError, type Target } from '@sledge/protocol';
import type { VuLoopPreference } from '../../shared/messages.js';

export type VuLoopChoice = { loop: 'native'; line: string } | { loop: 'typescript'; reason: string; line: string };

/**
 * Which loop runs a run's VUs. The native loop when the preference allows it,
 * the driver's TPROC-C hooks offer one (nativeVu), the options are ones it
 * implements (everything but asynchronous scaling and a connect pool) and its addon loads; the
 * TypeScript loop otherwise, with the reason. Preference 'native' turns a
 * missing addon into an error instead (like the row generator's 'native');
 * drivers or options the native loop does not cover still run in TypeScript.
 */
export function chooseVuLoop(
  pref: VuLoopPreference,
  driver: Driver,
  target: Target,
  opts: { asyncScale: boolean; reconnect?: boolean; maxTries?: number; steps?: unknown; arrival?: unknown },
  addonPath?: string,
): VuLoopChoice {
  const ts = (reason: string): VuLoopChoice => ({ loop: 'typescript', reason, line: `Virtual users run in JavaScript (${reason})` });
  if (pref === 'typescript') return ts('vuLoop is typescript');
  const native = driver.workloads.tprocc?.nativeVu;
  if (!native) return ts(`the ${ENGINE_DISPLAY[target.engine]} driver has no native VU loop`);
  if (opts.asyncScale) return ts('asynchronous scaling runs in the TypeScript loop');
  if (opts.steps !== undefined) return ts('step loads (tprocc.steps) run in the TypeScript loop');
  if (opts.arrival !== undefined) return ts('arrival-rate mode (tprocc.arrival) runs in the TypeScript loop');
  if ((target as { pool?: unknown }).pool) return ts('a connect pool (target.pool) runs in the TypeScript loop');
  const unsupported = native.unsupported?.(target as never);
  if (unsupported) return ts(unsupported);
  // The native loop reconnects (or not) and counts errors by class and lost sessions itself; retries are the TypeScript loop's.
  if ((opts.maxTries ?? 1) > 1) return ts('retries (tprocc.maxTries) run in the TypeScript loop');
  const loaded = native.load(addonPath);
  if (!loaded.available) {
    if (pref === 'native') {
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the native VU loop is not available: ${loaded.reason}; or set vuLoop (SLEDGE_VU_LOOP) to auto`, {
        field: 'vuLoop',
      });
    }
    return ts(loaded.reason);
  }
  return { loop: 'native', line: `Virtual users run in ${native.name}` };
}
