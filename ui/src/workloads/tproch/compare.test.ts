import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { queryRatios, queryTimes, ratioGeomean } from './compare.js';
import { QueryCompareTable } from './CompareCharts.js';
import { streamTimes, tprochJob, tprochResultFixture } from './fixtures.js';

describe('TPROC-H compare', () => {
  it('averages each query over streams, skipping failed executions', () => {
    const r = { queries: [...streamTimes(1, () => 1), ...streamTimes(2, () => 3, [4])] };
    const t = queryTimes(r);
    expect(t[0]).toBe(2);
    expect(t[3]).toBe(1);
    expect(queryTimes({ queries: streamTimes(1, () => 1, [9]) })[8]).toBeUndefined();
  });

  it('gives each query the ratio other/base and marks slower and faster ones', () => {
    const base = { queries: streamTimes(0, () => 2) };
    const other = { queries: streamTimes(0, (q) => (q === 3 ? 5 : q === 8 ? 1 : q === 9 ? 2.1 : 2), [12]) };
    const rows = queryRatios(base, other);
    expect(rows).toHaveLength(22);
    expect(rows[2]).toEqual({ query: 3, base: 2, other: 5, ratio: 2.5, verdict: 'slower' });
    expect(rows[7]).toMatchObject({ ratio: 0.5, verdict: 'faster' });
    expect(rows[8]).toMatchObject({ verdict: 'same' });
    expect(rows[11]).toMatchObject({ other: undefined, ratio: undefined, verdict: 'unknown' });
    expect(ratioGeomean(rows)).toBeCloseTo(Math.exp((Math.log(2.5) + Math.log(0.5) + Math.log(1.05)) / 21), 12);
  });

  it('draws the query-by-query table with the slower queries highlighted', () => {
    const a = tprochJob({ id: 'AAAAAAAAAAAAAAAAAAAAAAAA', result: tprochResultFixture({ queries: streamTimes(0, () => 1) }) });
    const b = tprochJob({ id: 'BBBBBBBBBBBBBBBBBBBBBBBB', result: tprochResultFixture({ queries: streamTimes(0, (q) => (q === 18 ? 3 : 1)) }) });
    const html = renderToStaticMarkup(createElement(QueryCompareTable, { jobs: [a, b] }));
    expect(html.match(/<tr data-query="/g)).toHaveLength(22);
    expect(html).toMatch(/class="num bad slower" data-testid="ratio-q18-0" data-ratio="3" data-verdict="slower"><strong>3.00×<\/strong>/);
    expect(html).toMatch(/data-testid="ratio-q1-0" data-ratio="1" data-verdict="same">1.00×</);
    expect(html).toContain('…BBBBBBBB');
  });
});
