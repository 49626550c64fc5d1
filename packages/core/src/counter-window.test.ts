import { describe, expect, it } from 'vitest';
import { windowCount, windowReadings, type CounterReading } from './counter-window.js';

const r = (value: number, epoch?: string, ts = 0): CounterReading => ({ ts, value, ...(epoch !== undefined ? { epoch } : {}) });

describe('windowCount: a cumulative counter over a window that may span a reset', () => {
  it('without a reset it is end - start, whatever the readings between', () => {
    expect(windowCount([r(1000, 'e1'), r(1300, 'e1'), r(1800, 'e1')])).toEqual({ count: 800, reset: false, dropped: 0, intervals: 2 });
    expect(windowCount([r(5), r(5)])).toEqual({ count: 0, reset: false, dropped: 0, intervals: 1 });
  });

  it('a restart that lost the statistics (the counter went back below start): the non-negative deltas, the interval across the reset 0', () => {
    // The penetration test's shape: cluster counter ~1.2M before, a crash restart, counting again from ~0.
    const w = windowCount([r(1_200_000, 'a'), r(1_215_000, 'a'), r(1_230_000, 'a'), r(4_000, 'b'), r(19_000, 'b'), r(34_000, 'b')]);
    expect(w.count).toBe(15_000 + 15_000 + 15_000 + 15_000);
    expect(w).toMatchObject({ reset: true, dropped: 1, intervals: 5 });
    expect(w.why).toBe('end 34000 < start 1200000; the server restarted or its statistics were reset');
    // end - start would be negative; its absolute value (what |Δ| gave) is nothing like the work done.
    expect(Math.abs(34_000 - 1_200_000)).not.toBe(w.count);
  });

  it('a reset inside the window is found even when end ends above start', () => {
    const w = windowCount([r(100), r(200), r(10), r(400)]);
    expect(w).toMatchObject({ count: 100 + 390, reset: true, dropped: 1, intervals: 3 });
    expect(w.why).toBe('it went back in 1 of 3 interval(s)');
  });

  it('a changed epoch alone (a clean restart that kept the statistics) is a reset counted from the deltas', () => {
    const w = windowCount([r(1000, 'e1'), r(1200, 'e1'), r(1300, 'e2'), r(1500, 'e2')]);
    expect(w).toMatchObject({ count: 500, reset: true, dropped: 0, intervals: 3, why: 'the server restarted or its statistics were reset' });
  });

  it('an epoch only one side reports is no change; no readings count nothing', () => {
    expect(windowCount([r(10, 'e1'), r(20)])).toMatchObject({ count: 10, reset: false });
    expect(windowCount([])).toEqual({ count: 0, reset: false, dropped: 0, intervals: 0 });
  });
});

describe('windowReadings', () => {
  it('takes the history entries from the start reading to the end reading (by identity), inclusive', () => {
    const a = { v: 1 };
    const b = { v: 2 };
    const c = { v: 3 };
    const d = { v: 4 };
    const h = [a, b, c, d].map((x, i) => ({ ts: i, x }));
    expect(windowReadings(h, (e) => e.x, b, d)?.map((e) => e.ts)).toEqual([1, 2, 3]);
    expect(windowReadings(h, (e) => e.x, { v: 2 }, d)).toBeUndefined();
    expect(windowReadings(h, (e) => e.x, d, b)).toBeUndefined();
  });
});
