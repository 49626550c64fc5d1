import { useMemo } from 'react';
import type { LiveJob } from '../../live/jobState.js';
import { TproccLiveKpis } from '../tprocc/LiveKpis.js';
import { CHBENCH_QUERY_METRIC, analyticLive } from './analytic.js';
import { chbenchAnalytic, fmtPerHour } from './result.js';

/**
 * The run header's live figures: TPROC-C's NOPM and TPM now, then the
 * analytic queries completed and their pace (the result's queries per hour
 * over the measured window once there is one; while live, since the first
 * query started).
 */
export function ChbenchLiveKpis({ live }: { live: LiveJob }) {
  const list = live.metrics[CHBENCH_QUERY_METRIC];
  const a = useMemo(() => analyticLive(list), [list]);
  const r = chbenchAnalytic(live.job);
  return (
    <>
      <TproccLiveKpis live={live} />
      <div title={r ? 'Analytic queries that started and finished in the measured window, without error' : 'Analytic queries finished without error so far (rampup included)'}>
        <span className="big" data-testid="live-analytic-queries">
          {r ? r.completedQueries : a.completed}
        </span>
        <span className="unit">analytic queries{(r ? r.errors : a.errors) > 0 ? ` (${r ? r.errors : a.errors} failed)` : ''}</span>
      </div>
      <div title={r ? 'Queries per hour of the measured window' : 'Completed queries per hour since the first one started'}>
        <span className="big" data-testid="live-queries-per-hour">
          {fmtPerHour(r ? r.queriesPerHour : a.perHour)}
        </span>
        <span className="unit">queries/h</span>
      </div>
    </>
  );
}
