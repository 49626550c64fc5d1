import { useCallback, useEffect, useState } from 'react';
import type { CheckItem, OutputLine } from '@sledge/protocol';
import { ENGINE_DISPLAY } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { isTerminalStatus, type LiveJob } from '../live/jobState.js';
import { Link } from '../router.js';
import { fmtDuration } from '../util/format.js';
import { jobElapsedMs } from '../util/jobs.js';
import { BuildProgressView } from './BuildProgress.js';
import { CheckList } from './CheckList.js';
import { ErrorBox } from './ErrorBox.js';
import { RunCharts, TimingSection } from './JobCharts.js';
import { OutputLog } from './OutputLog.js';
import { ResultBanner } from './ResultBanner.js';
import { StatusBadge } from './StatusBadge.js';
import { VuGrid } from './VuGrid.js';

export interface JobPanelProps {
  live: LiveJob;
  /** Read-only (shared link): no REST paging, no stop. */
  readOnly?: boolean;
  /** Show the job id as a link to its permalink page. */
  linkToJob?: boolean;
  outputHeight?: number;
}

/** Check results are not in the snapshot; fetched once the check job has finished. */
function useCheckItems(live: LiveJob, enabled: boolean): CheckItem[] | undefined {
  const [items, setItems] = useState<CheckItem[]>();
  const done = isTerminalStatus(live.job.status);
  useEffect(() => {
    if (!enabled || live.job.type !== 'check' || !done) return;
    let on = true;
    api.check(live.job.id).then((x) => on && setItems(x), () => on && setItems([]));
    return () => {
      on = false;
    };
  }, [enabled, live.job.id, live.job.type, done]);
  return items;
}

/** Everything about one job, live or finished: status, result, progress, charts, VUs, timings, output. */
export function JobPanel({ live, readOnly = false, linkToJob = false, outputHeight }: JobPanelProps) {
  const { job } = live;
  const [stopping, setStopping] = useState(false);
  const [stopError, setStopError] = useState<ApiError>();
  const checkItems = useCheckItems(live, !readOnly);
  const active = !isTerminalStatus(job.status);
  const fetchAfter = useCallback(async (afterSeq: number, limit: number): Promise<OutputLine[]> => (await api.output(job.id, { afterSeq, limit })).lines, [job.id]);
  const elapsed = jobElapsedMs(job, Date.now());

  return (
    <div className="job-panel" data-job-id={job.id} data-status={job.status}>
      <div className="job-status-line">
        <StatusBadge status={job.status} />
        <span>
          {job.type} · {ENGINE_DISPLAY[job.engine]}
          {job.engineVersion ? ` ${job.engineVersion}` : ''}
        </span>
        {elapsed !== undefined && <span className="muted">{fmtDuration(elapsed)}</span>}
        {linkToJob && (
          <Link to={`/jobs/${job.id}`} data-testid="job-link">
            job {job.id}
          </Link>
        )}
        {job.label && <strong className="job-label">{job.label}</strong>}
        {job.summary && <span className="muted">{job.summary}</span>}
        {active && !readOnly && (
          <button
            type="button"
            className="danger"
            disabled={stopping || job.status === 'stopping'}
            data-testid="stop-job"
            onClick={() => {
              setStopping(true);
              api
                .stopJob(job.id)
                .catch((e: ApiError) => setStopError(e))
                .finally(() => setStopping(false));
            }}
          >
            Stop
          </button>
        )}
      </div>
      {stopError && <ErrorBox error={stopError} title="Stop failed" />}
      {job.error && <ErrorBox error={job.error} title={`Job ${job.status}`} />}
      {job.result && <ResultBanner result={job.result} />}
      {live.progress && <BuildProgressView progress={live.progress} trail={live.progressTrail} elapsedMs={elapsed} />}
      {job.type === 'check' && checkItems && <CheckList items={checkItems} />}
      {job.type === 'run' && (
        <>
          <RunCharts live={live} />
          <section className="card" aria-label="Virtual users">
            <h3>Virtual users</h3>
            <VuGrid vus={live.vus} ended={!active} />
          </section>
          <TimingSection live={live} />
        </>
      )}
      <section className="card" aria-label="Output">
        <h3>Output</h3>
        <OutputLog lines={live.output} total={live.outputTotal} fetchAfter={readOnly ? undefined : fetchAfter} live={active} height={outputHeight} />
      </section>
    </div>
  );
}
