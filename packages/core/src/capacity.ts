/**
 * The capacity search's decisions (pure): which rate to probe next given the
 * outcomes so far. Bracketing doubles the rate from the start rate until a
 * probe fails (halving instead while the start rate itself fails), then
 * bisection narrows the gap between the last passing and the first failing
 * rate until it is within `tolerance` of the passing one, and the last
 * passing rate is held once to prove it stable. The runner
 * (server/src/runner/capacity.ts) runs each probe and reports its verdict.
 */
export interface CapacitySearchPlan {
  startRate: number;
  /** Never probe above this rate; a pass at it ends the bracketing. */
  maxRate?: number;
  /** Stop bisecting when (firstFail - lastPass) <= tolerance x lastPass. */
  tolerance: number;
}

export type CapacityPhase = 'bracket' | 'bisect' | 'hold';

/** The next thing to do: probe a rate (in a phase), or stop with the found rate (null: none passed). */
export type CapacityStep = { kind: 'probe'; phase: CapacityPhase; rate: number } | { kind: 'done'; rate: number | null; held: boolean; reason: string };

/** Halvings below the start rate before the search gives up (start / 2^6). */
export const MAX_HALVINGS = 6;
/** Doublings above the start rate when no maxRate caps the search (start x 2^20). */
export const MAX_DOUBLINGS = 20;

/** Rates are probed to 0.1/s (1/s from 100/s up): a schedule needs no finer step. */
export function roundRate(r: number): number {
  return r >= 100 ? Math.round(r) : Math.max(0.1, Math.round(r * 10) / 10);
}

const fmt = (r: number) => `${r}/s`;

export class CapacitySearch {
  private lastPass: number | null = null;
  private firstFail: number | null = null;
  private phase: CapacityPhase = 'bracket';
  private current: number;
  private doublings = 0;
  private halvings = 0;
  private result: CapacityStep | null = null;
  /** Why the search moved to the hold. */
  private why = '';

  constructor(private readonly plan: CapacitySearchPlan) {
    if (!(plan.startRate > 0)) throw new RangeError('startRate must be above 0');
    if (!(plan.tolerance > 0)) throw new RangeError('tolerance must be above 0');
    this.current = roundRate(plan.maxRate !== undefined ? Math.min(plan.startRate, plan.maxRate) : plan.startRate);
  }

  /** What to do now. */
  next(): CapacityStep {
    return this.result ?? { kind: 'probe', phase: this.phase, rate: this.current };
  }

  /** The last passing and first failing rates so far. */
  bounds(): { lastPass: number | null; firstFail: number | null } {
    return { lastPass: this.lastPass, firstFail: this.firstFail };
  }

  /** The verdict of the probe `next()` asked for. */
  record(passed: boolean): CapacityStep {
    if (this.result) throw new Error('the capacity search has ended');
    const r = this.current;
    if (this.phase === 'hold') {
      this.result = passed
        ? { kind: 'done', rate: r, held: true, reason: `${this.why}; ${fmt(r)} held the SLO` }
        : { kind: 'done', rate: r, held: false, reason: `${this.why}; ${fmt(r)} did not hold the SLO: the capacity is not stable at this rate` };
      return this.result;
    }
    if (passed) this.lastPass = Math.max(this.lastPass ?? 0, r);
    else this.firstFail = Math.min(this.firstFail ?? Infinity, r);
    if (this.phase === 'bracket') this.bracket(passed);
    if (this.phase === 'bisect') this.bisect();
    return this.next();
  }

  private hold(why: string): void {
    if (this.lastPass === null) {
      this.result = { kind: 'done', rate: null, held: false, reason: why };
      return;
    }
    this.why = why;
    this.phase = 'hold';
    this.current = this.lastPass;
  }

  private bracket(passed: boolean): void {
    const { maxRate } = this.plan;
    const r = this.current;
    if (passed && this.firstFail === null) {
      if (maxRate !== undefined && r >= maxRate) return this.hold(`${fmt(r)} is maxRate`);
      if (this.doublings >= MAX_DOUBLINGS) return this.hold(`${MAX_DOUBLINGS} doublings above the start rate all met the SLO`);
      this.doublings++;
      this.current = roundRate(maxRate !== undefined ? Math.min(r * 2, maxRate) : r * 2);
      return;
    }
    if (!passed && this.lastPass === null) {
      // The start rate (or a halving of it) fails: bracket downwards.
      if (this.halvings >= MAX_HALVINGS) return this.hold(`no rate down to ${fmt(r)} (the start rate / 2^${MAX_HALVINGS}) met the SLO`);
      this.halvings++;
      const lower = roundRate(r / 2);
      if (lower >= r) return this.hold(`no rate down to ${fmt(r)} met the SLO`);
      this.current = lower;
      return;
    }
    // A pass and a failure: bisect between them.
    this.phase = 'bisect';
  }

  private bisect(): void {
    const lo = this.lastPass;
    const hi = this.firstFail;
    if (lo === null || hi === null) return;
    if (hi - lo <= this.plan.tolerance * lo) return this.hold(`${fmt(lo)} passed and ${fmt(hi)} failed, within ${Math.round(this.plan.tolerance * 1000) / 10}%`);
    const mid = roundRate((lo + hi) / 2);
    // Rates are rounded: when the midpoint cannot fall strictly between them, the gap is as narrow as it gets.
    if (mid <= lo || mid >= hi) return this.hold(`${fmt(lo)} passed and ${fmt(hi)} failed, no rate probed between them`);
    this.current = mid;
  }
}
