/**
 * A cumulative counter over a measured window when it may have been reset
 * inside the window (the server restarted and lost its statistics, someone
 * called pg_stat_reset()): end - start would span the reset and mean
 * nothing. The monitor reads the counter every interval; these readings
 * are what the window is counted from then.
 */

/** One reading of a cumulative counter. */
export interface CounterReading {
  /** unix ms of the reading. */
  ts: number;
  value: number;
  /** The counter's lifetime (e.g. server start + statistics reset time); a change means it restarted. */
  epoch?: string;
}

export interface WindowCount {
  /** What the counter advanced over the window. */
  count: number;
  /** The counter went back, or its epoch changed, between two readings of the window. */
  reset: boolean;
  /** Intervals left out of `count` because the counter went back in them (their work before and after the reset is not known). */
  dropped: number;
  /** Intervals in the window. */
  intervals: number;
  /** Why a reset was detected, in words (for the run's warning line); undefined without one. */
  why?: string;
}

/**
 * The count over `readings` (the window's start reading, the monitor's
 * readings in between, its end reading, in time order). Without a reset:
 * end - start. With one (a reading below its predecessor, end below start,
 * or a changed epoch): the sum of the non-negative deltas between
 * consecutive readings; an interval in which the counter went back counts 0.
 */
export function windowCount(readings: readonly CounterReading[]): WindowCount {
  const first = readings[0];
  const last = readings[readings.length - 1];
  if (!first || !last) return { count: 0, reset: false, dropped: 0, intervals: 0 };
  const intervals = readings.length - 1;
  let sum = 0;
  let dropped = 0;
  let epochChanged = false;
  for (let i = 1; i < readings.length; i++) {
    const a = readings[i - 1]!;
    const b = readings[i]!;
    if (a.epoch !== undefined && b.epoch !== undefined && a.epoch !== b.epoch) epochChanged = true;
    const d = b.value - a.value;
    if (d >= 0) sum += d;
    else dropped++;
  }
  const wentBack = dropped > 0 || last.value < first.value;
  if (!wentBack && !epochChanged) return { count: last.value - first.value, reset: false, dropped: 0, intervals };
  const why = [
    last.value < first.value ? `end ${last.value} < start ${first.value}` : dropped > 0 ? `it went back in ${dropped} of ${intervals} interval(s)` : '',
    epochChanged ? 'the server restarted or its statistics were reset' : '',
  ]
    .filter(Boolean)
    .join('; ');
  return { count: sum, reset: true, dropped, intervals, why };
}

/**
 * The entries of a monitor's history that make a window: from the one
 * whose reading is `start` to the one whose reading is `end` (the objects
 * the monitor returned), inclusive. Undefined when either is missing.
 */
export function windowReadings<H, R>(history: readonly H[], reading: (h: H) => R, start: R, end: R): H[] | undefined {
  const i = history.findIndex((h) => reading(h) === start);
  let j = history.length - 1;
  while (j >= 0 && reading(history[j]!) !== end) j--;
  if (i < 0 || j < i) return undefined;
  return history.slice(i, j + 1);
}
