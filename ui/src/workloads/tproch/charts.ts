import type { TprochQueryTime } from '@sledge/protocol';
import { base, clock, elapsed, legend, tooltip, valueAxis } from '../../charts/options/common.js';
import type { ChartPalette } from '../../charts/options/palette.js';
import type { BarSeriesOption, ChartOption, CustomSeriesOption } from '../../charts/options/types.js';
import { opColorIn } from './ops.js';
import { streamName } from './result.js';
import type { Segment, Timeline } from './timeline.js';

const secText = (s: number) => `${s.toFixed(s < 10 ? 3 : 1)} s`;

/** A timeline tick as time since the test's first event: "+2.5 s" over a short span, "+1:05" over a longer one. */
export function sinceStart(ts: number, from: number | undefined, spanMs: number): string {
  if (from === undefined) return clock(ts);
  const s = (ts - from) / 1000;
  return spanMs < 60_000 ? `+${+s.toFixed(1)} s` : `+${elapsed(s)}`;
}

/** One timeline bar as the custom series reads it: [row index, start, end, segment index]. */
type Datum = [number, number, number, number];

/**
 * The timeline: one row per stream (and the refresh stream), each query a
 * bar from its start to its end, a running query up to `now` (drawn lighter,
 * with its name), failed ones red. The time axis is the wall clock.
 */
export function timelineOption(t: Timeline, p: ChartPalette, now: number): ChartOption {
  const segs: Segment[] = [];
  const data: Datum[] = [];
  t.rows.forEach((r, i) => {
    for (const s of r.segments) {
      data.push([i, s.start, s.end ?? Math.max(now, s.start), segs.length]);
      segs.push(s);
    }
  });
  const series: CustomSeriesOption = {
    type: 'custom',
    name: 'queries',
    encode: { x: [1, 2], y: 0 },
    data,
    renderItem: (_params, api) => {
      const row = api.value(0) as number;
      const seg = segs[api.value(3) as number]!;
      const a = api.coord([api.value(1), row]) as number[];
      const b = api.coord([api.value(2), row]) as number[];
      const h = (api.size!([0, 1]) as number[])[1]! * 0.62;
      const x = a[0]!;
      const w = Math.max(1, b[0]! - a[0]!);
      const y = a[1]! - h / 2;
      const color = seg.error ? (p.mode === 'dark' ? '#f87171' : '#dc2626') : opColorIn(seg.op, p.mode);
      const running = seg.end === undefined;
      const label = w > seg.label.length * 7 + 4;
      return {
        type: 'group',
        children: [
          {
            type: 'rect',
            shape: { x, y, width: w, height: h },
            style: { fill: color, opacity: running ? 0.45 : 0.9, stroke: running ? color : p.mode === 'dark' ? '#111827' : '#ffffff', lineWidth: running ? 1.5 : 0.5 },
          },
          ...(label ? [{ type: 'text' as const, style: { x: x + w / 2, y: y + h / 2, text: seg.label, fill: running ? p.text : '#ffffff', fontSize: 11, align: 'center' as const, verticalAlign: 'middle' as const } }] : []),
        ],
      };
    },
    tooltip: {
      formatter: (params: unknown) => {
        const d = (params as { data: Datum }).data;
        const s = segs[d[3]]!;
        const head = `${s.op.startsWith('rf') ? `${s.label} (update ${s.position})` : `${s.label} · position ${s.position} · set ${s.set}`} · ${streamName(s.stream)}`;
        const body = s.end === undefined ? `running since ${clock(s.start)}` : `${secText(s.seconds ?? (s.end - s.start) / 1000)}${s.rows !== undefined ? ` · ${s.rows.toLocaleString('en-US')} rows` : ''}`;
        return `${head}<br/>${body}${s.error ? `<br/><b>error:</b> ${s.error.replace(/</g, '&lt;')}` : ''}`;
      },
    },
  };
  return {
    ...base(p),
    tooltip: { ...tooltip(p, 'item') },
    grid: { left: 110, right: 24, top: 12, bottom: 32 },
    xAxis: {
      type: 'time',
      ...(t.from !== undefined ? { min: t.from } : {}),
      ...(t.to !== undefined ? { max: Math.max(t.to, now) } : {}),
      axisLine: { lineStyle: { color: p.axisLine } },
      // Time since the first query started: tenths of a second while the whole span is short (small SFs), m:ss beyond.
      axisLabel: { color: p.muted, formatter: (v: number) => sinceStart(v, t.from, Math.max(t.to ?? now, now) - (t.from ?? now)), hideOverlap: true },
      splitLine: { show: true, lineStyle: { color: p.splitLine } },
    },
    yAxis: {
      type: 'category',
      data: t.rows.map((r) => r.label),
      inverse: true,
      axisLine: { lineStyle: { color: p.axisLine } },
      axisLabel: { color: p.text },
      axisTick: { show: false },
    },
    dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'weakFilter' }],
    series: [series],
  };
}

/**
 * Query times as bars: Q1..Q22 on the x axis, one bar per stream (of the
 * query set given), and the geometric mean as a dashed line when known.
 */
export function queryBarsOption(times: readonly Pick<TprochQueryTime, 'stream' | 'query' | 'seconds' | 'rows' | 'error'>[], p: ChartPalette, geomean?: number): ChartOption {
  const streams = [...new Set(times.map((t) => t.stream))].sort((a, b) => a - b);
  const cats = Array.from({ length: 22 }, (_, i) => `Q${i + 1}`);
  const one = streams.length <= 1;
  const series: BarSeriesOption[] = streams.map((s, i) => {
    const data: (number | { value: number; itemStyle: { color: string } } | null)[] = cats.map(() => null);
    for (const t of times) {
      if (t.stream !== s || t.query < 1 || t.query > 22) continue;
      const color = t.error ? (p.mode === 'dark' ? '#f87171' : '#dc2626') : one ? opColorIn(`q${t.query}`, p.mode) : p.series[i % p.series.length]!;
      data[t.query - 1] = { value: t.seconds, itemStyle: { color } };
    }
    return {
      type: 'bar',
      name: streamName(s),
      data,
      color: p.series[i % p.series.length],
      barMaxWidth: 28,
      ...(i === 0 && geomean !== undefined
        ? { markLine: { symbol: 'none', silent: true, lineStyle: { type: 'dashed', color: p.text }, label: { formatter: `geomean ${geomean.toFixed(5)} s`, color: p.text, position: 'insideEndTop' }, data: [{ yAxis: geomean }] } }
        : {}),
    };
  });
  return {
    ...base(p),
    tooltip: { ...tooltip(p, 'axis'), axisPointer: { type: 'shadow' }, valueFormatter: (v) => (typeof v === 'number' ? secText(v) : '–') },
    ...(one ? {} : { legend: legend(p) }),
    grid: { left: 56, right: 24, top: one ? 24 : 36, bottom: 32 },
    xAxis: { type: 'category', data: cats, axisLine: { lineStyle: { color: p.axisLine } }, axisLabel: { color: p.muted, interval: 0, fontSize: 11 } },
    yAxis: valueAxis(p, 'seconds'),
    series,
  };
}

/**
 * Compare: each query's time in a job against the base job's as a ratio, on
 * a log2 scale around 1 (bars up: slower than the base, down: faster); bars
 * at or past `slowAt` (or its inverse) in the "worse" ("better") colour.
 */
export function ratioOption(rows: readonly { query: number; ratio: number | undefined }[], name: string, p: ChartPalette, slowAt: number): ChartOption {
  const bad = p.mode === 'dark' ? '#f87171' : '#dc2626';
  const good = p.mode === 'dark' ? '#4ade80' : '#16a34a';
  const times = (v: number) => `${+(2 ** v).toFixed(2)}×`;
  return {
    ...base(p),
    tooltip: { ...tooltip(p, 'axis'), axisPointer: { type: 'shadow' }, valueFormatter: (v) => (typeof v === 'number' ? `${(2 ** v).toFixed(2)}× the base time` : '–') },
    grid: { left: 64, right: 24, top: 28, bottom: 32 },
    xAxis: { type: 'category', data: rows.map((r) => `Q${r.query}`), axisLine: { onZero: true, lineStyle: { color: p.axisLine } }, axisLabel: { color: p.muted, interval: 0, fontSize: 11 } },
    yAxis: valueAxis(p, 'time vs base (log scale)', { minInterval: 0.5, axisLabel: { color: p.muted, formatter: times } }),
    series: [
      {
        type: 'bar',
        name,
        barMaxWidth: 28,
        data: rows.map((r) =>
          r.ratio === undefined || !(r.ratio > 0) ? null : { value: Math.log2(r.ratio), itemStyle: { color: r.ratio >= slowAt ? bad : r.ratio <= 1 / slowAt ? good : p.muted } },
        ),
      },
    ],
  };
}
