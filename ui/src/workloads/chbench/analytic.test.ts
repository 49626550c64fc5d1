import { describe, expect, it } from 'vitest';
import { LIGHT } from '../../charts/options/palette.js';
import { applyFrame, fromSnapshot } from '../../live/jobState.js';
import { snapshot } from '../../live/fixtures.js';
import { analyticLive, analyticTimeline, queryRows, queryStats, streamProgress, CHBENCH_QUERY_METRIC } from './analytic.js';
import { completedOption, queryMeansOption } from './charts.js';
import { CHBENCH_UI } from './index.js';
import { chbenchJob, chbenchResultFixture, cqSample } from './fixtures.js';

/** Two streams over 10 s: stream 1 runs Q1 (2 s) and Q2 (fails), stream 2 runs Q1 (4 s) and starts Q3. */
const samples = [
  cqSample(1000, { stream: 1, query: 1, phase: 'start' }),
  cqSample(1000, { stream: 2, query: 1, phase: 'start' }),
  cqSample(3000, { stream: 1, query: 1, phase: 'end', seconds: 2, rows: 5 }),
  cqSample(3000, { stream: 1, query: 2, phase: 'start' }),
  cqSample(4000, { stream: 1, query: 2, phase: 'end', seconds: 1, rows: 0, error: 'canceling statement due to statement timeout' }),
  cqSample(5000, { stream: 2, query: 1, phase: 'end', seconds: 4, rows: 5 }),
  cqSample(5000, { stream: 2, query: 3, phase: 'start' }),
];

describe('CH-benCHmark analytic streams from chbench-query frames', () => {
  it('takes the frames as they arrive on a live job and counts what each stream completed over time', () => {
    let s = fromSnapshot(snapshot({ job: chbenchJob({ status: 'running' }), seq: 0, metrics: {} }));
    samples.forEach((m, i) => {
      const r = applyFrame(s, { t: 'metric', jobId: s.job.id, seq: i + 1, kind: CHBENCH_QUERY_METRIC, samples: [m] });
      expect(r.kind).toBe('applied');
      s = r.state;
    });
    const list = s.metrics[CHBENCH_QUERY_METRIC];
    expect(streamProgress(list)).toEqual([
      { stream: 1, points: [[1000, 0], [3000, 1]], completed: 1, errors: 1 },
      { stream: 2, points: [[1000, 0], [5000, 1]], completed: 1, errors: 0 },
    ]);
    // 2 completed in the 9 s since the first start (to "now" at 10 s): 800 per hour.
    expect(analyticLive(list, 10_000)).toEqual({ completed: 2, errors: 1, streams: 2, perHour: 800 });
    expect(analyticLive([], 10_000)).toEqual({ completed: 0, errors: 0, streams: 0, perHour: undefined });

    // The chart: a step line per stream on the run's time axis, held to its end.
    const opt = completedOption(streamProgress(list), { min: 0, max: 12_000 }, LIGHT);
    const series = opt.series as { name: string; step: string; data: number[][] }[];
    expect(series.map((x) => [x.name, x.step])).toEqual([['Stream 1', 'end'], ['Stream 2', 'end']]);
    expect(series[1]!.data).toEqual([[1000, 0], [5000, 1], [12_000, 1]]);
    expect((opt.xAxis as { min: number; max: number }).max).toBe(12_000);
  });

  it("draws each stream's queries on TPROC-H's timeline, the running one open", () => {
    const t = analyticTimeline(samples, 6000);
    expect(t.rows.map((r) => r.label)).toEqual(['Stream 1', 'Stream 2']);
    expect(t.rows[0]!.segments.map((g) => [g.label, g.start, g.end, g.error !== undefined])).toEqual([
      ['Q1', 1000, 3000, false],
      ['Q2', 3000, 4000, true],
    ]);
    expect(t.running.map((g) => [g.label, g.stream])).toEqual([['Q3', 2]]);
  });

  it('sums executions per query (count, mean, min, max, errors) for the live bars and the table', () => {
    const stats = queryStats(samples);
    expect(stats).toEqual([
      { query: 1, count: 2, errors: 0, meanSeconds: 3, minSeconds: 2, maxSeconds: 4 },
      { query: 2, count: 0, errors: 1, meanSeconds: 0, minSeconds: 0, maxSeconds: 0 },
    ]);
    const rows = queryRows(stats);
    expect(rows).toHaveLength(22);
    expect(rows[0]!.stats?.count).toBe(2);
    expect(rows[2]!.stats).toBeUndefined();
    const bars = queryMeansOption(stats, LIGHT, 2.5);
    const s = (bars.series as { data: ({ value: number } | null)[]; markLine?: { data: { yAxis: number }[] } }[])[0]!;
    // Q2 only failed: no bar.
    expect(s.data.slice(0, 3).map((d) => d?.value ?? null)).toEqual([3, null, null]);
    expect(s.markLine!.data[0]!.yAxis).toBe(2.5);
    expect(queryMeansOption(stats, LIGHT).series).not.toHaveProperty('0.markLine');
  });

  it("reads the result's figures: NOPM, TPM and queries per hour as result columns (compare, jobs list)", () => {
    const j = chbenchJob({ result: chbenchResultFixture() });
    const cols = Object.fromEntries(CHBENCH_UI.resultColumns.map((c) => [c.key, c.value(j)]));
    expect(cols).toEqual({ nopm: 1200, tpm: 2800, qph: 720 });
    expect(CHBENCH_UI.resultColumns.find((c) => c.key === 'qph')!.format!(720)).toBe('720.0');
    expect(CHBENCH_UI.outcome(j)).toBe('15 s measured, 720.0 queries/h');
    expect(CHBENCH_UI.outcome(chbenchJob({ status: 'running' }))).toBeUndefined();
  });
});
