import { describe, expect, it } from 'vitest';
import type { AshSample } from '@sledge/protocol';
import { ashSeries, ashTops, bucketMsFor, mergeSeries, presentClasses, sampleWeight, seriesWeight, sqlActivity, sqlForEvent } from './ash.js';

const T0 = 1_700_000_000_000;
const s = (sec: number, session: string, waitClass: AshSample['waitClass'], event: string, sqlId?: string, extra: Partial<AshSample> = {}): AshSample => ({
  ts: T0 + sec * 1000,
  session,
  waitClass,
  event,
  ...(sqlId ? { sqlId, sql: `select ${sqlId}()` } : {}),
  ...extra,
});

// Two VUs for 4 seconds: VU 2 on CPU in neword, VU 3 waiting on a lock in payment for 2 s then on CPU.
const samples: AshSample[] = [
  s(0, '101', 'CPU', 'CPU', 'neword', { vu: 2, program: 'sledge-vu-2' }),
  s(0, '102', 'Lock', 'transactionid', 'payment', { vu: 3 }),
  s(1, '101', 'CPU', 'CPU', 'neword', { vu: 2, program: 'sledge-vu-2' }),
  s(1, '102', 'Lock', 'transactionid', 'payment', { vu: 3 }),
  s(2, '101', 'CPU', 'CPU', 'neword', { vu: 2, program: 'sledge-vu-2' }),
  s(2, '102', 'CPU', 'CPU', 'payment', { vu: 3 }),
  s(3, '101', 'IO', 'DataFileRead', 'neword', { vu: 2, program: 'sledge-vu-2' }),
  s(3, '900', 'Other', 'autovacuum', undefined, { background: true, weight: 0.5 }),
];

describe('ashSeries', () => {
  it('averages active sessions per class per second', () => {
    const r = ashSeries(samples);
    expect(r.bucketMs).toBe(1000);
    expect(r.buckets).toEqual([
      { ts: T0, aas: { CPU: 1, Lock: 1 } },
      { ts: T0 + 1000, aas: { CPU: 1, Lock: 1 } },
      { ts: T0 + 2000, aas: { CPU: 2 } },
      { ts: T0 + 3000, aas: { IO: 1, Other: 0.5 } },
    ]);
  });

  it('widens buckets to keep at most 600 per range and averages inside them', () => {
    expect(bucketMsFor(600_000)).toBe(1000);
    expect(bucketMsFor(601_000)).toBe(2000);
    expect(bucketMsFor(3_600_000)).toBe(6000);
    const r = ashSeries(samples, {}, { bucketMs: 2000 });
    expect(r.buckets[0]).toEqual({ ts: T0, aas: { CPU: 1, Lock: 1 } });
    expect(r.buckets[1]).toEqual({ ts: T0 + 2000, aas: { CPU: 1, IO: 0.5, Other: 0.25 } });
  });

  it('lists the classes present in the fixed order, CPU first', () => {
    expect(presentClasses(ashSeries(samples))).toEqual(['CPU', 'IO', 'Lock', 'Other']);
  });
});

describe('ashTops', () => {
  it('ranks events, SQL and sessions by share of all sampled activity', () => {
    const t = ashTops(samples);
    // 7.5 session-seconds over 4 s.
    expect(t.from).toBe(T0);
    expect(t.to).toBe(T0 + 4000);
    expect(t.topEvents[0]).toEqual({ event: 'CPU', waitClass: 'CPU', aas: 1, pct: 53.333 });
    expect(t.topEvents.map((e) => e.event)).toEqual(['CPU', 'transactionid', 'DataFileRead', 'autovacuum']);
    expect(t.topSql.map((q) => q.sqlId)).toEqual(['neword', 'payment']);
    expect(t.topSql[1]).toEqual({ sqlId: 'payment', sql: 'select payment()', aas: 0.75, pct: 40, byClass: { Lock: 0.5, CPU: 0.25 } });
    expect(t.topSessions[0]).toMatchObject({ session: '101', vu: 2, program: 'sledge-vu-2', pct: 53.333, byClass: { CPU: 0.75, IO: 0.25 } });
  });

  it('recomputes for a range', () => {
    const t = ashTops(samples, { from: T0 + 2000, to: T0 + 3000 });
    expect(t.topEvents.map((e) => [e.event, e.pct])).toEqual([
      ['CPU', 57.143],
      ['DataFileRead', 28.571],
      ['autovacuum', 14.286],
    ]);
    expect(t.topSql.find((q) => q.sqlId === 'payment')?.byClass).toEqual({ CPU: 1 });
  });
});

describe('drilldowns', () => {
  it('finds the SQL that waited on an event', () => {
    const q = sqlForEvent(samples, 'Lock', 'transactionid');
    expect(q.map((x) => [x.sqlId, x.pct])).toEqual([['payment', 100]]);
    expect(sqlForEvent(samples, 'CPU', 'CPU').map((x) => x.sqlId)).toEqual(['neword', 'payment']);
  });

  it("draws one SQL's activity over time by class on the chart's grid", () => {
    const a = sqlActivity(samples, 'payment', {}, { bucketMs: 1000, anchor: T0 });
    expect(a.buckets).toEqual([
      { ts: T0, aas: { Lock: 1 } },
      { ts: T0 + 1000, aas: { Lock: 1 } },
      { ts: T0 + 2000, aas: { CPU: 1 } },
    ]);
  });
});

describe('mergeSeries', () => {
  it('adds the samples that arrived after the REST report onto its grid', () => {
    const stored = samples.slice(0, 4);
    const base = { from: T0, to: T0 + 2000, bucketMs: 1000, series: ashSeries(stored).buckets };
    const merged = mergeSeries(base, samples);
    expect(merged).toEqual(ashSeries(samples));
    expect(seriesWeight(merged)).toBeCloseTo(sampleWeight(samples));
  });

  it('uses the samples alone without a report', () => {
    expect(mergeSeries(null, samples)).toEqual(ashSeries(samples));
  });

  it('sums a bucket the report and the tail share', () => {
    const base = { from: T0, to: T0 + 1000, bucketMs: 2000, series: [{ ts: T0, aas: { CPU: 0.5, Lock: 0.5 } }] };
    const merged = mergeSeries(base, samples);
    expect(merged.buckets[0]).toEqual({ ts: T0, aas: { CPU: 1, Lock: 1 } });
  });
});
