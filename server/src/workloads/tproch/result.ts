import { geomeanLine, powerAtSize, qphh, throughputAtSize } from '@sledge/core';
import { isStandardScale, type TprochRefreshTime, type TprochResult, type Validity } from '@sledge/protocol';
import type { StreamOutcome } from '../../runner/streams.js';
import type { TprochRun } from './session.js';

const NOT_TPC = "Sledge's scores, computed by the TPC-H specification's formulas; not TPC results";

/** The power test as it ran: its stream, its refresh (RF1/RF2 of one update set, when refresh ran), its seconds. */
export interface PowerOutcome {
  stream: StreamOutcome;
  refresh: TprochRefreshTime | null;
  elapsed: number;
}

/** The throughput test as it ran: its query streams, the refresh stream's update sets, Ts. */
export interface ThroughputOutcome {
  streams: StreamOutcome[];
  refreshes: TprochRefreshTime[];
  elapsed: number;
}

/** The fields every result has. */
function base(sh: TprochRun, streams: StreamOutcome[], refreshes: TprochRefreshTime[], validity: Validity | undefined) {
  const queries = streams.flatMap((s) => s.queries.map(({ startedAt: _at, ...q }) => q));
  return {
    mode: sh.o.mode,
    scaleFactor: sh.o.scaleFactor,
    standardScale: isStandardScale(sh.o.scaleFactor),
    streams: streams.length,
    dop: sh.o.dop,
    validation: sh.o.validation,
    queries,
    streamResults: streams.map((s) => ({ stream: s.stream, seconds: s.seconds, completedSets: s.completedSets, geomean: s.geomean, queriesReturningRows: s.queriesReturningRows })),
    refreshes,
    errors: queries.filter((q) => q.error !== undefined).length,
    ...(validity ? { validity } : {}),
  };
}

const failed = (s: StreamOutcome) => s.queries.some((q) => q.error !== undefined);

/** The power score over the stream's first set (with RF1/RF2 when refresh ran), and its notes. */
function powerScore(sh: TprochRun, p: PowerOutcome, notes: string[]): number | undefined {
  if (failed(p.stream)) {
    notes.push('power score not computed: queries of the power test failed');
    return undefined;
  }
  const first = p.stream.queries.filter((q) => q.set === 1);
  const rf = p.refresh ? [p.refresh.rf1Seconds, p.refresh.rf2Seconds] : [];
  const power = powerAtSize({ scaleFactor: sh.o.scaleFactor, querySeconds: first.map((q) => q.seconds), refreshSeconds: rf });
  if (!p.refresh) notes.push('power score from the 22 queries only (refresh off): not the specification\'s figure');
  if (sh.o.querySets > 1) notes.push('power score over query set 1');
  return power;
}

/** The throughput score over Ts, and its notes. */
function throughputScore(sh: TprochRun, t: ThroughputOutcome, notes: string[]): number | undefined {
  if (t.streams.some(failed)) {
    notes.push('throughput score not computed: queries of the throughput test failed');
    return undefined;
  }
  if (!sh.o.refresh) notes.push('throughput score without the refresh stream: not the specification\'s figure');
  return throughputAtSize(t.streams.length * sh.o.querySets, t.elapsed, sh.o.scaleFactor);
}

/** Power test: the stream's geomean; the power score. */
export function powerResult(sh: TprochRun, p: PowerOutcome, validity?: Validity): TprochResult {
  const b = base(sh, [p.stream], p.refresh ? [p.refresh] : [], validity);
  const notes: string[] = [];
  const power = powerScore(sh, p, notes);
  notes.push('the composite score needs a throughput score: run a performance test (mode performance) for both');
  notes.push(NOT_TPC);
  return {
    ...b,
    geomean: p.stream.geomean,
    elapsedSeconds: p.elapsed,
    ...(power !== undefined ? { powerAtSize: power } : {}),
    metricsNote: notes.join('; '),
    line: geomeanLine({ geomean: p.stream.geomean, count: p.stream.queriesReturningRows }),
  };
}

const slowestOf = (streams: StreamOutcome[]) => streams.reduce((a, s) => (s.geomean > a.geomean ? s : a), streams[0]!);

/** Throughput test: the slowest stream's geomean (HammerDB's guidance); the throughput score. */
export function throughputResult(sh: TprochRun, t: ThroughputOutcome): TprochResult {
  const b = base(sh, t.streams, t.refreshes, undefined);
  const slowest = slowestOf(t.streams);
  const notes: string[] = [];
  const tput = throughputScore(sh, t, notes);
  notes.push('the composite score needs a power score: run a performance test (mode performance) for both');
  notes.push(NOT_TPC);
  return {
    ...b,
    geomean: slowest.geomean,
    elapsedSeconds: t.elapsed,
    ...(tput !== undefined ? { throughputAtSize: tput } : {}),
    metricsNote: notes.join('; '),
    line: geomeanLine({ geomean: slowest.geomean, count: slowest.queriesReturningRows }),
  };
}

/**
 * Performance test (power then throughput): the power stream's geomean as
 * the headline, both scores and the composite √(power · throughput);
 * `streams` is the throughput test's S.
 */
export function performanceResult(sh: TprochRun, p: PowerOutcome, t: ThroughputOutcome, validity?: Validity): TprochResult {
  const b = base(sh, [p.stream, ...t.streams], [...(p.refresh ? [p.refresh] : []), ...t.refreshes], validity);
  const notes: string[] = [];
  const power = powerScore(sh, p, notes);
  const tput = throughputScore(sh, t, notes);
  const composite = qphh(power, tput);
  notes.push(NOT_TPC);
  return {
    ...b,
    streams: t.streams.length,
    geomean: p.stream.geomean,
    elapsedSeconds: p.elapsed + t.elapsed,
    powerSeconds: p.elapsed,
    throughputSeconds: t.elapsed,
    ...(power !== undefined ? { powerAtSize: power } : {}),
    ...(tput !== undefined ? { throughputAtSize: tput } : {}),
    ...(composite !== undefined ? { qphh: composite } : {}),
    metricsNote: notes.join('; '),
    line: geomeanLine({ geomean: p.stream.geomean, count: p.stream.queriesReturningRows }),
  };
}
