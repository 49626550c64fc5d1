import type { Driver } from '@sledge/core';
import { ENGINE_DISPLAY, type EngineId, type VuLoopCapability } from '@sledge/protocol';
import type { VuLoopPreference } from '../../shared/messages.js';

/**
 * What `sledge capabilities` says about an engine's VU loop: the native loop
 * when the driver offers one and its addon loads here (and the server's
 * vuLoop allows it), else the JavaScript loop with the reason and, where the
 * driver states it, what that costs in client CPU. Undefined for engines
 * without TPROC-C or without its transactions (TproccHooks.noTransactions,
 * DuckDB): their VUs never run a transaction loop. The same rules
 * as chooseVuLoop, without a target: a run's own options (async scaling,
 * steps, prepared off ...) can still send it to JavaScript, and its log says so.
 */
export function vuLoopCapability(engine: EngineId, driver: Pick<Driver, 'workloads'>, pref: VuLoopPreference = 'auto', addonPath?: string): VuLoopCapability | undefined {
  const tprocc = driver.workloads.tprocc;
  if (!tprocc || tprocc.noTransactions) return undefined;
  const native = tprocc.nativeVu;
  if (!native) return { active: 'javascript', reason: `the ${ENGINE_DISPLAY[engine]} driver has no native VU loop` };
  const js = (reason: string): VuLoopCapability => ({ active: 'javascript', name: native.name, reason, ...(native.javascriptCost ? { cost: native.javascriptCost } : {}) });
  if (pref === 'typescript') return js('the server runs every VU in JavaScript (vuLoop / SLEDGE_VU_LOOP is typescript)');
  const loaded = native.load(addonPath);
  return loaded.available ? { active: 'native', name: native.name } : js(loaded.reason);
}
