import { useEffect, useMemo, useState } from 'react';
import type { AshReport, AshSample, CpuSample, SystemInfo } from '@sledge/protocol';
import { api } from '../../api/endpoints.js';
import type { ApiError } from '../../api/http.js';
import { isTerminalStatus, type LiveJob } from '../../live/jobState.js';
import { ashTops, mergeSeries, sampleWeight, seriesWeight, type AshSeries, type AshTops } from '../../metrics/ash.js';
import { agentSystems, ashSamples, cpuBySource } from '../../metrics/samples.js';
import { useDebounced } from '../../state/throttle.js';

/** While a live job's page holds only part of its samples, the tops come from REST this often. */
const LIVE_TOPS_REFRESH_MS = 10_000;

export interface AshData {
  samples: AshSample[];
  /** The load chart's series. */
  series: AshSeries;
  /** The full-range REST report (null until loaded or when unreachable). */
  base: AshReport | null;
  baseError: ApiError | undefined;
  /** Whether the samples in the page are all the job stored (drilldowns are exact). */
  complete: boolean;
}

/**
 * The load chart's data. A finished job draws the REST report of its stored
 * samples; a live one draws that report as of when the page opened plus the
 * samples that arrived since (so a page opened late in a long run has
 * everything). Without REST (a shared link on a server with a token) the
 * samples the page holds draw it.
 */
export function useAshData(live: LiveJob): AshData {
  const id = live.job.id;
  const done = isTerminalStatus(live.job.status);
  const dropped = live.metricsDropped['ash'] ?? 0;
  const ashList = live.metrics['ash'];
  const samples = useMemo(() => ashSamples({ ash: ashList ?? [] }), [ashList]);
  const [base, setBase] = useState<AshReport | null>(null);
  const [baseError, setBaseError] = useState<ApiError>();
  useEffect(() => {
    let on = true;
    api.ash(id).then(
      (r) => {
        if (!on) return;
        setBase(r);
        setBaseError(undefined);
      },
      (e: ApiError) => on && setBaseError(e),
    );
    return () => {
      on = false;
    };
  }, [id, done, dropped]);
  const series = useMemo(() => (done && base ? { bucketMs: base.bucketMs, buckets: base.series } : mergeSeries(base, samples)), [done, base, samples]);
  const complete = useMemo(() => {
    if (dropped > 0) return false;
    if (!base || !base.series.length) return true;
    // The page holds every sample the base stands for (a snapshot carries at most 20,000 of each kind).
    const want = seriesWeight({ bucketMs: base.bucketMs, buckets: base.series });
    return sampleWeight(samples, base.to - 1000) >= want * 0.99 - 1;
  }, [base, samples, dropped]);
  return { samples, series, base, baseError, complete };
}

export type TopsSource = 'rest' | 'page';

export interface TopsState {
  tops: AshTops | null;
  source: TopsSource;
  loading: boolean;
  /** Increases every time new tops are shown (tests watch it). */
  version: number;
}

/**
 * Top events, SQL and sessions for the selected range (or the whole job).
 * A brushed range is recomputed by the server (GET /ash?from&to, debounced);
 * the whole job of a finished run is the full REST report; a live job's
 * tops come from its samples in the page, or from REST every 10 s when the
 * page does not hold them all. Where REST is out of reach the samples in the
 * page are used.
 */
export function useTops(live: LiveJob, data: AshData, selection: readonly [number, number] | null): TopsState {
  const id = live.job.id;
  const done = isTerminalStatus(live.job.status);
  const settled = useDebounced(selection, 300);
  const [rest, setRest] = useState<{ key: string; tops: AshTops } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const needRest = settled !== null || (!done && !data.complete);
  const key = settled ? `${settled[0]}-${settled[1]}` : `all-${tick}`;
  useEffect(() => {
    if (!needRest) return;
    let on = true;
    api.ash(id, settled ? { from: settled[0], to: settled[1] } : {}).then(
      (r) => on && setRest({ key, tops: r }),
      () => on && setFailed(key),
    );
    return () => {
      on = false;
    };
    // `key` stands for `settled` (and the refresh tick).
  }, [id, key, needRest]);
  useEffect(() => {
    if (done || data.complete || settled) return;
    const t = setInterval(() => setTick((x) => x + 1), LIVE_TOPS_REFRESH_MS);
    return () => clearInterval(t);
  }, [done, data.complete, settled]);

  const pageTops = useMemo(() => {
    if (needRest && failed !== key) return null;
    if (!needRest && done && data.base) return null;
    return ashTops(data.samples, settled ? { from: settled[0], to: settled[1] } : {});
  }, [needRest, failed, key, done, data.base, data.samples, settled]);

  const chosen: { tops: AshTops | null; source: TopsSource } = pageTops
    ? { tops: pageTops, source: 'page' }
    : !needRest && done && data.base
      ? { tops: data.base, source: 'rest' }
      : rest
        ? { tops: rest.tops, source: 'rest' }
        : { tops: null, source: 'rest' };
  const loading = needRest && rest?.key !== key && failed !== key;
  const [version, setVersion] = useState(0);
  useEffect(() => setVersion((v) => v + 1), [chosen.tops]);
  return { ...chosen, loading: loading || settled !== selection, version };
}

export interface CpuData {
  sources: Record<string, CpuSample[]>;
  systems: Record<string, SystemInfo>;
}

/** CPU samples per agent (REST for a finished job, the page's samples while live) and each agent's system info. */
export function useCpuData(live: LiveJob): CpuData {
  const id = live.job.id;
  const done = isTerminalStatus(live.job.status);
  const cpuList = live.metrics['cpu'];
  const inPage = useMemo(() => cpuBySource({ cpu: cpuList ?? [] }), [cpuList]);
  const [stored, setStored] = useState<{ sources: Record<string, CpuSample[]>; systems: Record<string, SystemInfo> } | null>(null);
  const agentsNow = Object.keys(inPage).join('\u0000');
  useEffect(() => {
    let on = true;
    api.cpu(id).then(
      (r) => on && setStored({ sources: r.sources, systems: agentSystems(r.system) }),
      () => undefined,
    );
    return () => {
      on = false;
    };
  }, [id, done, agentsNow]);
  return useMemo(() => ({ sources: done && stored ? stored.sources : inPage, systems: stored?.systems ?? {} }), [done, stored, inPage]);
}
