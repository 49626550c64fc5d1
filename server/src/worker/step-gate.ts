import { CTRL_RUN, RUN_GO, VU_STATE } from '../shared/layout.js';
import { SH_ACTIVE } from '../shared/shape-layout.js';

type WaitAsync = (a: Int32Array, i: number, v: number, t: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** How often an idle VU rechecks the run word (a stop) while it waits for its step. */
const IDLE_POLL_MS = 200;

/**
 * Step loads: a VU whose slot (index) is beyond the current step's VU count
 * idles here (state idle, its session kept) until a step includes it again.
 * True when the VU may run its next operation, false when the run stopped.
 */
export async function awaitStepSlot(control: Int32Array, shape: Int32Array, states: Int32Array, index: number): Promise<boolean> {
  let active = Atomics.load(shape, SH_ACTIVE);
  if (index < active) return true;
  Atomics.store(states, index, VU_STATE.idle);
  while (Atomics.load(control, CTRL_RUN) === RUN_GO) {
    const r = waitAsync(shape, SH_ACTIVE, active, IDLE_POLL_MS);
    if (r.async) await r.value;
    active = Atomics.load(shape, SH_ACTIVE);
    if (index < active) {
      Atomics.store(states, index, VU_STATE.running);
      return true;
    }
  }
  return false;
}
