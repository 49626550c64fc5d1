/**
 * Shared memory for run shapes (step loads, arrival rate): one small block
 * beside the counters (SharedBlocks.shape). Int32 words, then the arrival
 * schedule's epoch as a Float64 (ms, performance.timeOrigin + now(): the
 * same clock in every thread).
 *
 * SH_ACTIVE:  VU slots that may run now (step loads); VUs with index >= it idle.
 * SH_NEXT:    the next arrival index a free session claims.
 * SH_IN_USE:  sessions running an arrival's transaction now.
 * SH_PEAK:    most sessions in use at once (reset by the runner at the window start).
 * SH_DROPPED: arrivals that found every session busy.
 * SH_STARTED: arrivals started.
 * SH_TICK_PEAK: most sessions in use at once since the runner's last live sample.
 */
export const SH_ACTIVE = 0;
export const SH_NEXT = 1;
export const SH_IN_USE = 2;
export const SH_PEAK = 3;
export const SH_DROPPED = 4;
export const SH_STARTED = 5;
export const SH_TICK_PEAK = 6;
const SH_INTS = 8;
/** Float64 index of the epoch (bytes 32..39). */
export const SH_EPOCH_F64 = SH_INTS / 2;
export const SHAPE_BYTES = SH_INTS * 4 + 8;

/** A new shape block: every VU slot active (no step load). */
export function allocShape(vus: number): SharedArrayBuffer {
  const b = new SharedArrayBuffer(SHAPE_BYTES);
  new Int32Array(b)[SH_ACTIVE] = vus;
  return b;
}

/** Absolute ms on a clock every thread shares. */
export const sharedNow = (): number => performance.timeOrigin + performance.now();

function raise(shape: Int32Array, i: number, n: number): void {
  let peak = Atomics.load(shape, i);
  while (n > peak) {
    const was = Atomics.compareExchange(shape, i, peak, n);
    if (was === peak) return;
    peak = was;
  }
}

/** Raise SH_PEAK and SH_TICK_PEAK to `n` where they are lower. */
export function raisePeak(shape: Int32Array, n: number): void {
  raise(shape, SH_PEAK, n);
  raise(shape, SH_TICK_PEAK, n);
}
