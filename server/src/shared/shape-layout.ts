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
 * SH_SEQ:     a steered schedule's (capacity search) sequence number: odd while the runner rewrites it.
 *
 * A steered schedule (ArrivalPlan.steered) is one segment the runner replaces
 * when it changes the rate: Float64s at SH_SEG_F64: the segment's start (s
 * after the epoch), the arrival index due then, and the rate.
 */
export const SH_ACTIVE = 0;
export const SH_NEXT = 1;
export const SH_IN_USE = 2;
export const SH_PEAK = 3;
export const SH_DROPPED = 4;
export const SH_STARTED = 5;
export const SH_TICK_PEAK = 6;
export const SH_SEQ = 7;
const SH_INTS = 8;
/** Float64 index of the epoch (bytes 32..39). */
export const SH_EPOCH_F64 = SH_INTS / 2;
/** Float64 index of a steered schedule's segment: start second, arrival index, rate (bytes 40..63). */
export const SH_SEG_F64 = SH_EPOCH_F64 + 1;
export const SHAPE_BYTES = SH_INTS * 4 + 8 + 3 * 8;

/** A steered schedule's current segment: from `startSec` (after the epoch), arrival `k0` onwards come at `rate` per second. */
export interface ArrivalSegment {
  startSec: number;
  k0: number;
  rate: number;
}

/** Read the segment (a seqlock: retried while the runner rewrites it). */
export function readSegment(shape: Int32Array): ArrivalSegment {
  const f = new Float64Array(shape.buffer);
  for (;;) {
    const a = Atomics.load(shape, SH_SEQ);
    if (a % 2 === 0) {
      const seg = { startSec: f[SH_SEG_F64]!, k0: f[SH_SEG_F64 + 1]!, rate: f[SH_SEG_F64 + 2]! };
      if (Atomics.load(shape, SH_SEQ) === a) return seg;
    }
  }
}

/** Write the segment (the runner's thread only). */
export function writeSegment(shape: Int32Array, seg: ArrivalSegment): void {
  const f = new Float64Array(shape.buffer);
  Atomics.add(shape, SH_SEQ, 1);
  f[SH_SEG_F64] = seg.startSec;
  f[SH_SEG_F64 + 1] = seg.k0;
  f[SH_SEG_F64 + 2] = seg.rate;
  Atomics.add(shape, SH_SEQ, 1);
}

/** Arrivals due by `sec` after the epoch under a segment (not rounded). */
export const segmentArrivalsBy = (seg: ArrivalSegment, sec: number): number => seg.k0 + Math.max(0, sec - seg.startSec) * seg.rate;

/** When arrival k is due (s after the epoch) under a segment; arrivals before its start keep their place before it. */
export const segmentArrivalTime = (seg: ArrivalSegment, k: number): number => seg.startSec + (k - seg.k0) / seg.rate;

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
