import { describe, expect, it } from 'vitest';
import type { BuildProgress, OutputLine } from '@sledge/protocol';
import { job } from '../live/fixtures.js';
import { fmtDuration, fmtInt, fmtRate } from './format.js';
import { groupByDay, matchesFilter, upsertJob } from './jobs.js';
import { filterLines, prependOlder, vusOf } from './output.js';
import { percentOf, progressValue, summarizeProgress } from './progress.js';
import { tproccBuildWorker } from '../workloads/tprocc/build.js';
import { tprochBuildWorker } from '../workloads/tproch/build.js';

describe('jobs list helpers', () => {
  const a = job({ id: 'A'.repeat(24), createdAt: new Date(2026, 0, 2, 12).toISOString() });
  const b = job({ id: 'B'.repeat(24), createdAt: new Date(2026, 0, 2, 9).toISOString() });
  const c = job({ id: 'C'.repeat(24), createdAt: new Date(2026, 0, 1, 23).toISOString() });
  it('groups newest-first jobs by local day', () => {
    expect(groupByDay([a, b, c]).map((g) => [g.day, g.jobs.length])).toEqual([
      ['2026-01-02', 2],
      ['2026-01-01', 1],
    ]);
  });
  it('inserts new jobs in date order and replaces known ones', () => {
    const n = job({ id: 'D'.repeat(24), createdAt: new Date(2026, 0, 2, 10).toISOString() });
    expect(upsertJob([a, b, c], n).map((j) => j.id[0])).toEqual(['A', 'D', 'B', 'C']);
    expect(upsertJob([a, b], { ...b, status: 'completed' })[1]!.status).toBe('completed');
  });
  it('matches pushed jobs against the list filters', () => {
    expect(matchesFilter(a, { engine: 'postgresql', type: 'run' })).toBe(true);
    expect(matchesFilter(a, { engine: 'sqlite' })).toBe(false);
    expect(matchesFilter({ ...a, label: 'Nightly' }, { q: 'night' })).toBe(true);
  });
});

describe('output helpers', () => {
  const lines: OutputLine[] = [
    { seq: 3, vu: 0, ts: 0, text: 'Vuser 2:RUNNING' },
    { seq: 4, vu: 2, ts: 0, text: 'Processing 1000 transactions' },
    { seq: 5, vu: 3, ts: 0, text: 'processing done' },
  ];
  it('filters by VU and by text, case-insensitively', () => {
    expect(filterLines(lines, 2, '').map((l) => l.seq)).toEqual([4]);
    expect(filterLines(lines, null, 'PROCESSING').map((l) => l.seq)).toEqual([4, 5]);
    expect(filterLines(lines, null, '')).toBe(lines);
    expect(vusOf(lines)).toEqual([0, 2, 3]);
  });
  it('prepends older pages without duplicates', () => {
    const older: OutputLine[] = [
      { seq: 1, vu: 1, ts: 0, text: 'a' },
      { seq: 2, vu: 1, ts: 0, text: 'b' },
      { seq: 3, vu: 0, ts: 0, text: 'dup' },
    ];
    expect(prependOlder(lines, older).map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('summarizeProgress', () => {
  const p: BuildProgress = {
    ts: 10_000,
    phase: 'load',
    expected: { item: 100_000, warehouse: 2, stock: 200_000 },
    workers: [
      { worker: 1, warehouses: [0, 0], rows: { item: 100_000 }, done: true },
      { worker: 2, warehouses: [1, 1], rows: { warehouse: 1, stock: 100_000 }, done: false, currentWarehouse: 1 },
      { worker: 3, warehouses: [2, 2], rows: { warehouse: 1, stock: 50_000 }, done: false },
    ],
  };
  it('sums rows per table and sizes each worker by its warehouse share', () => {
    const s = summarizeProgress(
      p,
      [
        { ts: 8_000, rows: 150_000 },
        { ts: 10_000, rows: 250_002 },
      ],
      undefined,
      tproccBuildWorker,
    );
    expect(s.tables.map((t) => [t.label, t.done, t.expected])).toEqual([
      ['item', 100_000, 100_000],
      ['warehouse', 2, 2],
      ['stock', 150_000, 200_000],
    ]);
    expect(s.workers.map((w) => w.expected)).toEqual([100_000, 100_001, 100_001]);
    expect(s.workers.map((w) => w.label)).toEqual(['Worker 1 · item', 'Worker 2 · W 1–1 (at 1)', 'Worker 3 · W 2–2']);
    expect(s.workers[0]!.finished).toBe(true);
    expect(s.rowsPerSec).toBeCloseTo(50_001, 0);
    expect(s.etaSec).toBeCloseTo(50_000 / 50_001, 3);
  });
  it('sizes a single build VU by ITEM and every warehouse, and names both', () => {
    const one = { ...p, workers: [{ worker: 1, warehouses: [1, 2] as [number, number], rows: { item: 100_000, warehouse: 2, stock: 200_000 }, done: true }] };
    const s = summarizeProgress(one, [{ ts: 10_000, rows: 300_002 }], undefined, tproccBuildWorker);
    expect(s.workers.map((w) => [w.label, w.expected, w.finished])).toEqual([['Worker 1 · item, W 1–2', 300_002, true]]);
  });
  it('uses the whole build for the rate once done', () => {
    const done = { ...p, phase: 'done' };
    const s = summarizeProgress(done, [{ ts: 10_000, rows: 250_002 }], 25_000, tproccBuildWorker);
    expect(s.rowsPerSec).toBeCloseTo(10_000, 0);
    expect(s.etaSec).toBe(0);
  });
  it('shows 100% only when every row is there, and never more', () => {
    expect(percentOf(599_999, 600_000)).toBe(99);
    expect(percentOf(600_000, 600_000)).toBe(100);
    expect(percentOf(601_351, 600_000)).toBe(100);
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(1, 0)).toBe(100);
    expect(progressValue({ fraction: 0.99999, percent: 99 })).toBe(999);
    expect(progressValue({ fraction: 1, percent: 100 })).toBe(1000);
    const almost: BuildProgress = { ...p, expected: { item: 100_000 }, workers: [{ worker: 1, warehouses: [0, 0], rows: { item: 99_999 }, done: false }] };
    const s = summarizeProgress(almost, [], undefined, tproccBuildWorker);
    expect([s.tables[0]!.percent, s.workers[0]!.percent, s.percent]).toEqual([99, 99, 99]);
    // A worker over its estimated share stays below 100% until it reports done.
    expect(summarizeProgress(p, [], undefined, tproccBuildWorker).workers.map((w) => w.percent)).toEqual([100, 99, 50]);
  });

  it('a finished build shows every worker complete, also workers that shared queues over every warehouse', () => {
    // PostgreSQL's table lanes: each worker may load any warehouse, so its estimate is the whole build (it reads 40% and 59% of it).
    const lanes: BuildProgress = {
      ts: 10_000,
      phase: 'done',
      expected: { item: 100, warehouse: 2, stock: 1000 },
      workers: [
        { worker: 1, warehouses: [0, 0], rows: { item: 100 }, done: true },
        { worker: 2, warehouses: [1, 2], rows: { warehouse: 1, stock: 400 }, done: false },
        { worker: 3, warehouses: [1, 2], rows: { warehouse: 1, stock: 600 }, done: false },
      ],
    };
    expect(summarizeProgress({ ...lanes, phase: 'load' }, [], undefined, tproccBuildWorker).workers.map((w) => w.percent)).toEqual([100, 40, 59]);
    expect(summarizeProgress(lanes, [], undefined, tproccBuildWorker).workers.map((w) => [w.percent, w.finished])).toEqual([
      [100, true],
      [100, true],
      [100, true],
    ]);
    // The job completed though the last frame still said load: complete too.
    expect(summarizeProgress({ ...lanes, phase: 'load' }, [], undefined, tproccBuildWorker, true).workers.map((w) => w.percent)).toEqual([100, 100, 100]);
  });

  it("TPROC-H build workers are labelled with TPROC-H's tables and units, sized by their share", () => {
    const h: BuildProgress = {
      ts: 1,
      phase: 'load',
      expected: { region: 5, nation: 25, supplier: 100, customer: 1500, part: 2000, partsupp: 8000, orders: 15_000, lineitem: 60_000 },
      workers: [
        { worker: 1, warehouses: [0, 0], rows: { region: 5, nation: 25 }, done: true },
        { worker: 2, warehouses: [1, 7500], rows: { supplier: 50, orders: 3000 }, done: false },
        { worker: 3, warehouses: [7501, 15_000], rows: {}, done: false },
      ],
    };
    const s = summarizeProgress(h, [], undefined, tprochBuildWorker);
    expect(s.workers.map((w) => w.label)).toEqual(['Worker 1 · region, nation', 'Worker 2 · orders 1–7,500 (50% of each table)', 'Worker 3 · orders 7,501–15,000 (50% of each table)']);
    expect(s.workers.map((w) => w.expected)).toEqual([30, 43_300, 43_300]);
    expect(s.workers.map((w) => w.percent)).toEqual([100, 7, 0]);
    expect(s.workers.some((w) => /item|W \d/.test(w.label))).toBe(false);
  });
});

describe('format', () => {
  it('formats numbers and durations', () => {
    expect(fmtInt(12345.6)).toBe('12,346');
    expect(fmtInt(undefined)).toBe('–');
    expect(fmtDuration(65_000)).toBe('1:05');
    expect(fmtDuration(3_725_000)).toBe('1:02:05');
    expect(fmtRate(12_345)).toBe('12.3k');
  });
});
