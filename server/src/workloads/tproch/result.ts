import { geomeanLine, powerAtSize, throughputAtSize } from '@sledge/core';
import { isStandardScale, type TprochRefreshTime, type TprochResult } from '@sledge/protocol';
import type { StreamOutcome } from '../../runner/streams.js';
import type { TprochRun } from './session.js';

const UNAUDITED = "Sledge's TPC-H metrics, computed as the specification defines them; not audited";

/** The fields every result has. */
function base(sh: TprochRun, streams: StreamOutcome[], refreshes: TprochRefreshTime[]) {
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
  };
}

/** Power test: the stream's geomean; Power@Size over its first set (with RF1/RF2 when refresh ran). */
export function powerResult(sh: TprochRun, s: StreamOutcome, refresh: TprochRefreshTime | null, elapsedSeconds: number): TprochResult {
  const b = base(sh, [s], refresh ? [refresh] : []);
  const first = s.queries.filter((q) => q.set === 1);
  const notes: string[] = [];
  let power: number | undefined;
  if (b.errors > 0) notes.push('Power@Size not computed: queries failed');
  else {
    const rf = refresh ? [refresh.rf1Seconds, refresh.rf2Seconds] : [];
    power = powerAtSize({ scaleFactor: sh.o.scaleFactor, querySeconds: first.map((q) => q.seconds), refreshSeconds: rf });
    if (!refresh) notes.push('Power@Size from the 22 queries only (refresh off): not a TPC-H figure');
    if (sh.o.querySets > 1) notes.push('Power@Size over query set 1');
  }
  notes.push('QphH@Size needs Throughput@Size: run a throughput test and combine');
  notes.push(UNAUDITED);
  return {
    ...b,
    geomean: s.geomean,
    elapsedSeconds,
    ...(power !== undefined ? { powerAtSize: power } : {}),
    metricsNote: notes.join('; '),
    line: geomeanLine({ geomean: s.geomean, count: s.queriesReturningRows }),
  };
}

/** Throughput test: the slowest stream's geomean (HammerDB's guidance); Throughput@Size over Ts. */
export function throughputResult(sh: TprochRun, streams: StreamOutcome[], refreshes: TprochRefreshTime[], elapsedSeconds: number): TprochResult {
  const b = base(sh, streams, refreshes);
  const slowest = streams.reduce((a, s) => (s.geomean > a.geomean ? s : a), streams[0]!);
  const notes: string[] = [];
  let tput: number | undefined;
  if (b.errors > 0) notes.push('Throughput@Size not computed: queries failed');
  else {
    tput = throughputAtSize(streams.length * sh.o.querySets, elapsedSeconds, sh.o.scaleFactor);
    if (!sh.o.refresh) notes.push('Throughput@Size without the refresh stream: not a TPC-H figure');
  }
  notes.push('QphH@Size needs Power@Size: run a power test and combine (QphH = √(Power × Throughput))');
  notes.push(UNAUDITED);
  return {
    ...b,
    geomean: slowest.geomean,
    elapsedSeconds,
    ...(tput !== undefined ? { throughputAtSize: tput } : {}),
    metricsNote: notes.join('; '),
    line: geomeanLine({ geomean: slowest.geomean, count: slowest.queriesReturningRows }),
  };
}
