import { FV_SLOTS, F_SLOTS, KINDS, faultVuIndex, type SharedBlocks } from './layout.js';

/**
 * The shared-memory state of a group of VUs, copied out in VU order: what a
 * replica sends each second and the primary writes back at the VUs' global
 * indexes, so everything that reads the primary's shared blocks (counters,
 * VU grid, faults, client ASH) sees remote VUs as local ones.
 */
export interface VuSlices {
  counters: number[];
  faults: number[];
  states: number[];
  ash: number[];
}

const copy = (a: Int32Array, from: number, n: number, out: number[]) => {
  for (let i = 0; i < n; i++) out.push(Atomics.load(a, from + i));
};

/** Read VUs 0..vus-1 of blocks sized for `vus` VUs of `ops` operations. */
export function readSlices(shared: SharedBlocks, vus: number, ops: number): VuSlices {
  const counters = new Int32Array(shared.counters);
  const faults = new Int32Array(shared.faults);
  const out: VuSlices = { counters: [], faults: [], states: [], ash: [] };
  copy(counters, 0, vus * ops * KINDS, out.counters);
  copy(faults, 0, vus * ops * F_SLOTS, out.faults);
  copy(faults, faultVuIndex(vus, ops, 0, 0), vus * FV_SLOTS, out.faults);
  copy(new Int32Array(shared.states), 0, vus, out.states);
  copy(new Int32Array(shared.ash), 0, vus * 2, out.ash);
  return out;
}

/** Write slices of VUs `indexes` (global, in slice order) into blocks sized for `total` VUs. */
export function writeSlices(shared: SharedBlocks, total: number, ops: number, indexes: readonly number[], s: VuSlices): void {
  const counters = new Int32Array(shared.counters);
  const faults = new Int32Array(shared.faults);
  const states = new Int32Array(shared.states);
  const ash = new Int32Array(shared.ash);
  const n = indexes.length;
  const perC = ops * KINDS;
  const perF = ops * F_SLOTS;
  indexes.forEach((g, i) => {
    for (let k = 0; k < perC; k++) Atomics.store(counters, g * perC + k, s.counters[i * perC + k] ?? 0);
    for (let k = 0; k < perF; k++) Atomics.store(faults, g * perF + k, s.faults[i * perF + k] ?? 0);
    for (let k = 0; k < FV_SLOTS; k++) Atomics.store(faults, faultVuIndex(total, ops, g, k), s.faults[n * perF + i * FV_SLOTS + k] ?? 0);
    Atomics.store(states, g, s.states[i] ?? 0);
    Atomics.store(ash, g * 2, s.ash[i * 2] ?? 0);
    Atomics.store(ash, g * 2 + 1, s.ash[i * 2 + 1] ?? 0);
  });
}
