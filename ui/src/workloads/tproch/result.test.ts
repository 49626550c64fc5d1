import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryTable } from './QueryTable.js';
import { TprochResultBanner } from './ResultBanner.js';
import { TPROCH_UI } from './index.js';
import { geomeanOf, queryMatrix } from './result.js';
import { streamTimes, tprochJob, tprochResultFixture } from './fixtures.js';
import { setKnownCapabilities } from '../../state/capabilities.js';
import type { Capabilities } from '@sledge/protocol';

/** Capabilities as the server reports them: PostgreSQL applies a degree of parallelism, SQLite has none. */
const CAPS = {
  version: 't',
  node: 'v20',
  cpus: 2,
  generator: { active: 'typescript' },
  engines: [
    { engine: 'sqlite', displayName: 'SQLite', available: true, library: 'better-sqlite3', workloads: ['tprocc', 'tproch'], workloadFeatures: { tproch: { dop: false } } },
    { engine: 'postgresql', displayName: 'PostgreSQL', available: true, library: 'pg', workloads: ['tprocc', 'tproch'], workloadFeatures: { tproch: { dop: true } } },
  ],
} as Capabilities;

/** The text of every `<td>` of one table row (tags stripped). */
const cellsOf = (html: string, query: number) => {
  const row = html.match(new RegExp(`<tr data-query="${query}">(.*?)</tr>`))![1]!;
  return [...row.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
};

describe('TPROC-H job page from a TprochResult', () => {
  it('lays the queries out by query and stream and computes geomeans over queries returning rows', () => {
    const queries = [...streamTimes(1, (q) => q / 10), ...streamTimes(2, (q) => q / 5, [5])];
    const m = queryMatrix(queries);
    expect(m.streams).toEqual([1, 2]);
    expect(m.rows).toHaveLength(22);
    expect(m.rows[4]!.cells.get(2)).toMatchObject({ query: 5, error: expect.stringContaining('timeout') });
    expect(m.rows[13]!.cells.get(1)).toMatchObject({ query: 14, position: 1, seconds: 1.4 });
    const g1 = geomeanOf(queries.filter((q) => q.stream === 1))!;
    expect(g1).toBeCloseTo(Math.exp(Array.from({ length: 22 }, (_, i) => Math.log((i + 1) / 10)).reduce((a, b) => a + b) / 22), 12);
    // Q5 of stream 2 failed: 21 queries count.
    const g2 = geomeanOf(queries.filter((q) => q.stream === 2))!;
    expect(g2).toBeCloseTo(Math.exp(Array.from({ length: 22 }, (_, i) => i + 1).filter((q) => q !== 5).reduce((a, q) => a + Math.log(q / 5), 0) / 21), 12);
  });

  it('renders 22 query rows with seconds, rows, errors, position and the plan button', () => {
    const r = tprochResultFixture({ queries: streamTimes(0, (q) => q / 10, [7]) });
    const html = renderToStaticMarkup(createElement(QueryTable, { jobId: 'J', queries: r.queries, plans: new Map([[1, { plan: 'Seq Scan' }]]) }));
    expect(html.match(/<tr data-query="/g)).toHaveLength(22);
    expect(cellsOf(html, 14)).toEqual(['Q14', '1', '1.40000 140 rows', 'Plan']);
    expect(cellsOf(html, 7)).toEqual(['Q7', '21', 'error 0.70000', 'Plan']);
    expect(html).toContain('title="error: Q7 failed: canceling statement due to statement timeout"');
    expect(html).toContain('data-testid="plan-q1"');
    // Foot: the stream's geomean without the failed query.
    const g = geomeanOf(r.queries)!;
    expect(html).toContain(`data-testid="stream-geomean-0"><strong>${g.toFixed(5)}</strong>`);
  });

  it("shows the headline line, the geomean and the scores labelled as Sledge's, not TPC results", () => {
    const job = tprochJob({ result: tprochResultFixture({ qphh: undefined, throughputAtSize: undefined }) });
    setKnownCapabilities(CAPS);
    const html = renderToStaticMarkup(createElement(TprochResultBanner, { job }));
    // A SQLite run: no DOP; the same result on PostgreSQL shows it.
    expect(html).toMatch(/data-testid="result-scale">non-standard scale factor · 1 stream<\/span>/);
    expect(renderToStaticMarkup(createElement(TprochResultBanner, { job: { ...job, engine: 'postgresql' } }))).toContain('1 stream · DOP 2');
    setKnownCapabilities(undefined);
    expect(html).toContain('Geometric mean of query times returning rows (22) is 0.90000');
    expect(html).toMatch(/data-testid="result-geomean" data-value="0.9">0.90000</);
    expect(html).toContain('Sledge&#x27;s, not TPC results');
    expect(html).toContain('power score');
    expect(html).toContain('composite score');
    expect(html).toContain('non-standard SF');
    expect(html).toMatch(/data-testid="result-power" data-value="1234.5">1,234.5</);
    expect(html).toMatch(/data-testid="result-qphh" data-value="">–</);
    expect(html).toContain('Power@Size from queries only: refresh off');
  });

  it('gives the jobs list and compare its geomean and QphH columns, and the lists their summary', () => {
    const job = tprochJob({ result: tprochResultFixture({ qphh: 987.65 }) });
    const cols = TPROCH_UI.resultColumns.map((c) => [c.key, c.value(job), c.format!(c.value(job)!)]);
    expect(cols).toEqual([
      ['geomean', 0.9, '0.90000'],
      ['qphh', 987.65, '987.7'],
    ]);
    expect(TPROCH_UI.resultColumns[0]!.lowerIsBetter).toBe(true);
    expect(TPROCH_UI.jobScale(job)).toBe(0.01);
    expect(TPROCH_UI.jobVus(job)).toBe(1);
    // SQLite has no degree of parallelism: no "DOP 2" (before the capabilities load, none is claimed either).
    setKnownCapabilities(undefined);
    expect(TPROCH_UI.summary(job)).toEqual(['power test', 'SF 0.01']);
    setKnownCapabilities(CAPS);
    expect(TPROCH_UI.summary(job)).toEqual(['power test', 'SF 0.01']);
    expect(TPROCH_UI.outcome(job)).toBe('geomean 0.90000 s, 25.3 s elapsed');
    const thr = tprochJob({ engine: 'postgresql', config: { tproch: { scaleFactor: 10, mode: 'throughput', querySets: 2, dop: 4, refresh: true } } });
    expect(TPROCH_UI.summary(thr)).toEqual(['throughput test', 'SF 10', '3 query streams', '2 query sets', 'DOP 4', 'refresh on']);
    setKnownCapabilities(undefined);
    expect(TPROCH_UI.runPlan(thr)).toMatchObject({ timed: false, vus: 3, totalIterations: 44 });
    expect(TPROCH_UI.planCell(thr)).toBe('throughput, 3 streams');
    // A performance test: the power stream, then the SF's streams (SF 1: 2).
    const perf = tprochJob({ engine: 'postgresql', config: { tproch: { scaleFactor: 1, mode: 'performance', querySets: 1, dop: 2, refresh: true } } });
    expect(TPROCH_UI.summary(perf)).toEqual(['performance test (power + throughput)', 'SF 1', '2 query streams', 'refresh on']);
    expect(TPROCH_UI.planCell(perf)).toBe('performance, power + 2 streams');
  });

  it('a performance result shows both tests\' seconds and the power stream\'s geomean', () => {
    const job = tprochJob({ result: tprochResultFixture({ mode: 'performance', streams: 2, powerSeconds: 10, throughputSeconds: 15.3, elapsedSeconds: 25.3, throughputAtSize: 50, qphh: 248.5 }) });
    const html = renderToStaticMarkup(createElement(TprochResultBanner, { job }));
    expect(html).toContain('s geometric mean (power test)');
    expect(html).toContain('performance test: power 10.0 s, throughput 15.3 s');
    expect(html).toMatch(/data-testid="result-qphh" data-value="248.5">248.5</);
  });
});
