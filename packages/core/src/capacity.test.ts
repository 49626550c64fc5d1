import { describe, expect, it } from 'vitest';
import { CapacitySearch, MAX_HALVINGS, roundRate, type CapacityStep } from './capacity.js';

/** Drive a search against a synthetic system that meets the SLO up to `capacity` (and, for the hold, up to `holdCapacity`). */
function run(s: CapacitySearch, capacity: number, holdCapacity = capacity): { probes: { phase: string; rate: number; passed: boolean }[]; end: CapacityStep } {
  const probes: { phase: string; rate: number; passed: boolean }[] = [];
  for (let i = 0; i < 100; i++) {
    const step = s.next();
    if (step.kind === 'done') return { probes, end: step };
    const passed = step.rate <= (step.phase === 'hold' ? holdCapacity : capacity);
    probes.push({ phase: step.phase, rate: step.rate, passed });
    s.record(passed);
  }
  throw new Error('the search did not end');
}

describe('CapacitySearch', () => {
  it('doubles until a probe fails, bisects to the tolerance, then holds the last pass', () => {
    const { probes, end } = run(new CapacitySearch({ startRate: 100, tolerance: 0.05 }), 730);
    expect(probes.slice(0, 4)).toEqual([
      { phase: 'bracket', rate: 100, passed: true },
      { phase: 'bracket', rate: 200, passed: true },
      { phase: 'bracket', rate: 400, passed: true },
      { phase: 'bracket', rate: 800, passed: false },
    ]);
    // Bisection between 400 and 800: 600 pass, 700 pass, 750 fail, 725 pass; 750 - 725 = 25 <= 5% of 725.
    expect(probes.slice(4).map((p) => [p.phase, p.rate, p.passed])).toEqual([
      ['bisect', 600, true],
      ['bisect', 700, true],
      ['bisect', 750, false],
      ['bisect', 725, true],
      ['hold', 725, true],
    ]);
    expect(end).toMatchObject({ kind: 'done', rate: 725, held: true });
  });

  it('ends within the tolerance of the true capacity whatever it is', () => {
    for (const cap of [13, 99, 250, 1234, 5000]) {
      const { end } = run(new CapacitySearch({ startRate: 50, tolerance: 0.1 }), cap);
      expect(end.kind).toBe('done');
      const rate = (end as { rate: number }).rate;
      expect(rate).toBeLessThanOrEqual(cap);
      expect(rate).toBeGreaterThanOrEqual(cap / 1.1 - 1);
    }
  });

  it('halves while the start rate fails, then bisects upwards', () => {
    const { probes, end } = run(new CapacitySearch({ startRate: 400, tolerance: 0.05 }), 130);
    expect(probes.slice(0, 3).map((p) => [p.phase, p.rate, p.passed])).toEqual([
      ['bracket', 400, false],
      ['bracket', 200, false],
      ['bracket', 100, true],
    ]);
    expect(probes[3]).toMatchObject({ phase: 'bisect', rate: 150, passed: false });
    expect(end).toMatchObject({ rate: 129, held: true });
  });

  it('stops at maxRate when every probe up to it passes', () => {
    const { probes, end } = run(new CapacitySearch({ startRate: 100, maxRate: 300, tolerance: 0.05 }), 10_000);
    expect(probes.map((p) => p.rate)).toEqual([100, 200, 300, 300]);
    expect(probes.at(-1)!.phase).toBe('hold');
    expect(end).toMatchObject({ rate: 300, held: true });
    expect((end as { reason: string }).reason).toContain('maxRate');
  });

  it('reports no rate when even the lowest halving fails, and holds nothing', () => {
    const { probes, end } = run(new CapacitySearch({ startRate: 64, tolerance: 0.05 }), 0.5);
    expect(probes).toHaveLength(MAX_HALVINGS + 1);
    expect(probes.every((p) => !p.passed && p.phase === 'bracket')).toBe(true);
    expect(end).toMatchObject({ kind: 'done', rate: null, held: false });
  });

  it('says so when the hold fails at the found rate', () => {
    const { probes, end } = run(new CapacitySearch({ startRate: 100, tolerance: 0.05 }), 730, 700);
    expect(probes.at(-1)).toEqual({ phase: 'hold', rate: 725, passed: false });
    expect(end).toMatchObject({ rate: 725, held: false });
  });

  it('refuses a verdict after the end', () => {
    const s = new CapacitySearch({ startRate: 10, maxRate: 10, tolerance: 0.1 });
    s.record(true);
    s.record(true);
    expect(s.next().kind).toBe('done');
    expect(() => s.record(true)).toThrow(/ended/);
  });

  it('rounds rates to 0.1/s, and to 1/s from 100/s', () => {
    expect(roundRate(12.345)).toBe(12.3);
    expect(roundRate(123.4)).toBe(123);
    expect(roundRate(0.01)).toBe(0.1);
  });
});
