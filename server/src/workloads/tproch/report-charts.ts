import type { EChartsOption } from 'echarts';
import type { TprochQueryTime, TprochResult } from '@sledge/protocol';
import type { Palette } from '../../report/palette.js';
import { categoryAxis, legend, valueAxis } from '../../report/chart-common.js';

/** The 22 query numbers. */
export const QUERIES = Array.from({ length: 22 }, (_, i) => i + 1);

/** Streams named as HammerDB's VUs: stream 0 is the power stream. */
export const streamName = (s: number) => (s === 0 ? 'power stream' : `stream ${s}`);

/** A query's time in one stream (its last query set), or undefined when it did not run. */
export function queryTime(queries: readonly TprochQueryTime[], stream: number, q: number): TprochQueryTime | undefined {
  let hit: TprochQueryTime | undefined;
  for (const x of queries) if (x.stream === stream && x.query === q && (!hit || x.set >= hit.set)) hit = x;
  return hit;
}

export function streamsOf(r: TprochResult): number[] {
  return [...new Set(r.queries.map((q) => q.stream))].sort((a, b) => a - b);
}

export interface QueryBars {
  name: string;
  seconds: (number | null)[];
}

/** One bar series per stream (or per job in a compare): seconds per query Q1..Q22. */
export function queryBarsOption(bars: readonly QueryBars[], p: Palette): EChartsOption {
  return {
    legend: legend(p),
    grid: { left: 56, right: 16, top: 34, bottom: 28 },
    xAxis: categoryAxis(p, QUERIES.map((q) => `Q${q}`), { axisLabel: { color: p.text, fontSize: 10, interval: 0 } }),
    yAxis: valueAxis(p, 'seconds'),
    series: bars.map((b, i) => ({ name: b.name, type: 'bar', color: p.series[i % p.series.length], data: b.seconds, barMaxWidth: 18 })) as EChartsOption['series'],
  };
}

/** A TPROC-H job's bars: one series per stream (at most 8; more streams are summarised by their mean). */
export function jobQueryBars(r: TprochResult): QueryBars[] {
  const streams = streamsOf(r);
  if (streams.length <= 8) return streams.map((s) => ({ name: streamName(s), seconds: QUERIES.map((q) => queryTime(r.queries, s, q)?.seconds ?? null) }));
  return [
    {
      name: `mean of ${streams.length} streams`,
      seconds: QUERIES.map((q) => {
        const xs = streams.map((s) => queryTime(r.queries, s, q)?.seconds).filter((x): x is number => x !== undefined);
        return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
      }),
    },
  ];
}
