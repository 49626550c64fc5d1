import { describe, expect, it } from 'vitest';
import { fromSnapshot, applyFrame } from '../../live/jobState.js';
import { snapshot } from '../../live/fixtures.js';
import { timelineOf, plansOf, profilesOf } from './timeline.js';
import { sinceStart, timelineOption, queryBarsOption } from './charts.js';
import { LIGHT } from '../../charts/options/palette.js';
import { qSample, rSample, tprochJob } from './fixtures.js';

describe('TPROC-H timeline from metric frames', () => {
  it('opens a segment at a query start, closes it at its end, and keeps streams and the refresh stream apart', () => {
    let s = fromSnapshot(snapshot({ job: tprochJob({ status: 'running' }), seq: 0, metrics: {} }));
    const frames = [
      { kind: 'tproch-refresh', samples: [rSample(1000, { stream: 0, update: 1, fn: 'rf1', phase: 'start' })] },
      { kind: 'tproch-query', samples: [qSample(1000, { stream: 1, query: 21, position: 1, phase: 'start' }), qSample(1000, { stream: 2, query: 6, position: 1, phase: 'start' })] },
      { kind: 'tproch-query', samples: [qSample(3500, { stream: 2, query: 6, position: 1, phase: 'end', seconds: 2.4, rows: 1 })] },
      { kind: 'tproch-query', samples: [qSample(3600, { stream: 2, query: 17, position: 2, phase: 'start' })] },
      { kind: 'tproch-refresh', samples: [rSample(4000, { stream: 0, update: 1, fn: 'rf1', phase: 'end', seconds: 3 })] },
      { kind: 'tproch-query', samples: [qSample(5000, { stream: 1, query: 21, position: 1, phase: 'end', seconds: 4, rows: 0, error: 'timeout' })] },
    ];
    frames.forEach((f, i) => {
      const r = applyFrame(s, { t: 'metric', jobId: s.job.id, seq: i + 1, kind: f.kind, samples: f.samples });
      expect(r.kind).toBe('applied');
      s = r.state;
    });
    const t = timelineOf(s.metrics, true, 6000);
    expect(t.rows.map((r) => r.label)).toEqual(['Stream 1', 'Stream 2', 'Refresh stream']);
    expect(t.rows[1]!.segments.map((g) => [g.label, g.start, g.end, g.seconds, g.rows])).toEqual([
      // Q6 started (its frame) at 1000 but ran 2.4 s up to 3500: the bar is its own time, not the wait before it.
      ['Q6', 1100, 3500, 2.4, 1],
      ['Q17', 3600, undefined, undefined, undefined],
    ]);
    expect(t.rows[0]!.segments[0]).toMatchObject({ label: 'Q21', end: 5000, error: 'timeout', rows: 0 });
    expect(t.rows[2]!.segments[0]).toMatchObject({ op: 'rf1', label: 'RF1', start: 1000, end: 4000, seconds: 3 });
    expect(t.finished.map((g) => g.label)).toEqual(['Q6', 'Q21']);
    expect(t.running.map((g) => g.label)).toEqual(['Q17']);
    expect([t.from, t.to]).toEqual([1000, 6000]);

    // The chart draws one bar per segment, the running one up to now, on the rows in order.
    const opt = timelineOption(t, LIGHT, 6000);
    expect((opt.yAxis as { data: string[] }).data).toEqual(['Stream 1', 'Stream 2', 'Refresh stream']);
    const data = (opt.series as { data: number[][] }[])[0]!.data;
    expect(data).toHaveLength(4);
    expect(data.find((d) => d[0] === 1 && d[1] === 3600)).toEqual([1, 3600, 6000, 2]);
    expect(data.find((d) => d[0] === 1 && d[2] === 3500)).toEqual([1, 1100, 3500, 1]);
    // Ticks count from the first event: tenths of a second over a short test, m:ss over a long one.
    const fmt = (opt.xAxis as { axisLabel: { formatter: (v: number) => string } }).axisLabel.formatter;
    expect([fmt(1000), fmt(3500)]).toEqual(['+0 s', '+2.5 s']);
    expect(sinceStart(1000 + 65_000, 1000, 120_000)).toBe('+1:05');
  });

  it("a stream's first query is drawn from its own start, not the stream's start-up (0.154 s is 0.154 s wide)", () => {
    // As SQLite stored them: Q14's start frame 760 ms before its end, the query itself 0.154 s.
    const metrics = {
      'tproch-query': [
        qSample(264_527, { stream: 0, query: 14, position: 1, phase: 'start' }),
        qSample(265_287, { stream: 0, query: 14, position: 1, phase: 'end', seconds: 0.154, rows: 1 }),
        qSample(265_287, { stream: 0, query: 2, position: 2, phase: 'start' }),
        qSample(265_297, { stream: 0, query: 2, position: 2, phase: 'end', seconds: 0.008, rows: 1 }),
      ],
    };
    const t = timelineOf(metrics, false);
    const [q14, q2] = t.rows[0]!.segments;
    expect([q14!.start, q14!.end]).toEqual([265_287 - 154, 265_287]);
    expect(q14!.end! - q14!.start).toBe(154);
    expect([q2!.start, q2!.end]).toEqual([265_289, 265_297]);
    // The axis still starts at the stream's first frame: the start-up shows as the gap before Q14.
    expect(t.from).toBe(264_527);
  });

  it('puts a power run\'s RF1 and RF2 on the power stream and places an end without its start by its seconds', () => {
    const metrics = {
      'tproch-refresh': [rSample(1000, { stream: 0, update: 1, fn: 'rf1', phase: 'start' }), rSample(2000, { stream: 0, update: 1, fn: 'rf1', phase: 'end', seconds: 1 })],
      'tproch-query': [qSample(4500, { stream: 0, query: 14, position: 1, phase: 'end', seconds: 2.5, rows: 1 })],
    };
    const t = timelineOf(metrics, false);
    expect(t.rows.map((r) => r.label)).toEqual(['Power stream']);
    expect(t.rows[0]!.segments.map((g) => [g.label, g.start, g.end])).toEqual([
      ['RF1', 1000, 2000],
      ['Q14', 2000, 4500],
    ]);
    expect(t.running).toEqual([]);
  });

  it('reads stored profiles by query in run order, keeping well-formed operators and dropping what is not a profile', () => {
    const op = (depth: number, name: string, seconds: number, rows: number) => ({ depth, name, seconds, rows });
    const profiles = profilesOf({
      'tproch-profile': [
        { ts: 1, data: { stream: 1, set: 1, query: 1, profile: { seconds: 0.2, cpuSeconds: 0.3, operators: [op(0, 'PROJECTION', 0.01, 4), { ...op(1, 'SEQ_SCAN', 0.15, 5900), detail: 'Table: lineitem' }, { depth: 'x', name: 'BAD' }] } } },
        { ts: 2, data: { stream: 2, set: 1, query: 1, profile: { seconds: 0.4, operators: [] } } },
        { ts: 3, data: { stream: 1, set: 1, query: 2 } },
      ],
    });
    expect([...profiles.keys()]).toEqual([1]);
    expect(profiles.get(1)).toEqual([
      { stream: 1, set: 1, seconds: 0.2, cpuSeconds: 0.3, operators: [op(0, 'PROJECTION', 0.01, 4), { ...op(1, 'SEQ_SCAN', 0.15, 5900), detail: 'Table: lineitem' }] },
      { stream: 2, set: 1, seconds: 0.4, operators: [] },
    ]);
  });

  it('reads stored plans (with the query text when the run kept it) by query and the finished queries as bars with the geomean line', () => {
    const plans = plansOf({ 'tproch-plan': [{ ts: 1, data: { query: 1, plan: 'Seq Scan on lineitem', sql: 'SELECT l_returnflag FROM lineitem' } }, { ts: 2, data: { query: 'q2', plan: 'Hash Join' } }] });
    expect([...plans]).toEqual([
      [1, { plan: 'Seq Scan on lineitem', sql: 'SELECT l_returnflag FROM lineitem' }],
      [2, { plan: 'Hash Join' }],
    ]);
    const bars = queryBarsOption(
      [
        { stream: 0, query: 3, seconds: 1.5, rows: 10 },
        { stream: 0, query: 1, seconds: 0.5, rows: 4, error: 'x' },
      ],
      LIGHT,
      0.8,
    );
    const s = (bars.series as { data: ({ value: number } | null)[]; markLine?: { data: { yAxis: number }[] } }[])[0]!;
    expect(s.data.map((d) => d?.value ?? null).slice(0, 4)).toEqual([0.5, null, 1.5, null]);
    expect(s.markLine!.data[0]!.yAxis).toBe(0.8);
  });
});
