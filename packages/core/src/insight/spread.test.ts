import { describe, expect, it } from 'vitest';
import { regressionVerdict, spreadOf } from './spread.js';
import { changedPlans, planShape } from './plan-shape.js';

describe('spreadOf', () => {
  it('is the sample standard deviation over the mean, from two readings up', () => {
    const s = spreadOf([90, 100, 110])!;
    expect(s.repeats).toBe(3);
    expect(s.cv).toBeCloseTo(0.1, 12);
    expect(spreadOf([100])).toBeUndefined();
    expect(spreadOf([0, 0])).toBeUndefined();
  });
});

describe('regressionVerdict', () => {
  const cv5 = { cv: 0.05, repeats: 3 };
  it('calls a drop larger than 2·√(cvA² + cvB²) a regression, a smaller one noise', () => {
    // noise = 2·√(0.05² + 0.05²) = 0.1414
    const r = regressionVerdict({ a: 1000, b: 800, lowerIsBetter: false, spreadA: cv5, spreadB: cv5 });
    expect(r.verdict).toBe('regression');
    expect(r.change).toBeCloseTo(-0.2, 12);
    expect(r.noise).toBeCloseTo(0.1414, 4);
    expect(regressionVerdict({ a: 1000, b: 900, lowerIsBetter: false, spreadA: cv5, spreadB: cv5 }).verdict).toBe('within-noise');
    expect(regressionVerdict({ a: 1000, b: 1200, lowerIsBetter: false, spreadA: cv5, spreadB: cv5 }).verdict).toBe('improvement');
  });

  it('reads a rise as a regression when lower is better (TPROC-H geomean seconds)', () => {
    expect(regressionVerdict({ a: 10, b: 13, lowerIsBetter: true, spreadA: cv5 }).verdict).toBe('regression');
  });

  it('uses the spread of one side for both when only one was measured, and gives no verdict without any', () => {
    expect(regressionVerdict({ a: 1000, b: 800, lowerIsBetter: false, spreadB: { cv: 0.2, repeats: 2 } }).verdict).toBe('within-noise');
    const none = regressionVerdict({ a: 1000, b: 500, lowerIsBetter: false });
    expect(none).toEqual({ change: -0.5, noise: null, verdict: 'unknown' });
    expect(regressionVerdict({ a: null, b: 500, lowerIsBetter: false, spreadA: cv5 }).verdict).toBe('unknown');
  });
});

describe('planShape / changedPlans', () => {
  const seq = 'Seq Scan on lineitem  (cost=0.00..172792.50 rows=6001215 width=25)\n  Filter: (l_shipdate <= 10)';
  it('ignores costs, row estimates and constants: the same operators compare equal', () => {
    expect(planShape(seq)).toBe(planShape('Seq Scan on lineitem  (cost=0.00..99.00 rows=12 width=25)\n  Filter: (l_shipdate <= 12)'));
    // Another run's parameters (TPROC-H draws them from its seed): the same plan.
    expect(planShape("Filter: (n_name = 'EGYPT'::bpchar)")).toBe(planShape("Filter: (n_name = 'ARGENTINA'::bpchar)"));
    expect(planShape("Filter: (p_type ~~ '%O''BRASS'::text)")).toBe(planShape("Filter: (p_type ~~ '%TIN'::text)"));
    expect(planShape(seq)).not.toBe(planShape('Index Scan using l_idx on lineitem  (cost=0.43..8.45 rows=1 width=25)\n  Index Cond: (l_shipdate <= 10)'));
  });

  it('lists the queries, present in both runs, whose plan shape differs', () => {
    const idx = 'Index Scan using l_idx on lineitem  (cost=0.43..8.45 rows=1 width=25)';
    const r = changedPlans(
      [
        { query: 2, plan: seq },
        { query: 1, plan: seq },
        { query: 3, plan: seq },
      ],
      [
        { query: 1, plan: seq.replace('6001215', '6000000') },
        { query: 2, plan: idx },
      ],
    );
    expect(r.compared).toBe(2);
    expect(r.changed).toEqual([{ query: 2, planA: seq, planB: idx }]);
  });
});
