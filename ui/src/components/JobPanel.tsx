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
import { TimingSection } from './JobCharts.js';
import { OutputLog } from './OutputLog.js';
import { ReplicaResults } from './ReplicaResults.js';
import { RunHeader } from './RunHeader.js';
import { StatusBadge } from './StatusBadge.js';
import { VerdictBanner } from './VerdictBanner.js';
import { THRESHOLD_ABORT, verdictOf } from '../util/verdict.js';
import { VuGrid } from './VuGrid.js';
import { MetricsView } from './metrics/MetricsView.js';
import { workloadOf } from '../workloads/registry.js';

export type JobTab = 'overview' | 'metrics';

export interface JobPanelProps {
  live: LiveJob;
  /** Read-only (shared link): no REST paging, no stop. */
  readOnly?: boolean;
  /** Show the job id as a link to its permalink page. */
  linkToJob?: boolean;
  outputHeight?: number;
  /** The tab shown (controlled by the page, e.g. from ?view=); uncontrolled when omitted. */
  tab?: JobTab;
  onTab?: (t: JobTab) => void;
}

/** Jobs that sample active session history and CPU beside their work. */
export const hasMetrics = (live: LiveJob): boolean =>
  live.job.type === 'build' || live.job.type === 'run' || ['ash', 'cpu', 'sampler'].some((k) => (live.metrics[k]?.length ?? 0) > 0);

/**
 * Check results: stored jobs carry them in the snapshot; a check that ends
 * while the page watches it is fetched once it has finished.
 */
function useCheckItems(live: LiveJob, enabled: boolean): CheckItem[] | undefined {
  const [items, setItems] = useState<CheckItem[]>();
  const done = isTerminalStatus(live.job.status);
  const inSnapshot = live.check !== undefined;
  useEffect(() => {
    if (!enabled || inSnapshot || live.job.type !== 'check' || !done) return;
    let on = true;
    api.check(live.job.id).then((x) => on && setItems(x), () => on && setItems([]));
    return () => {
      on = false;
    };
  }, [enabled, inSnapshot, live.job.id, live.job.type, done]);
  return live.check ?? items;
}

/** Everything about one job, live or finished: status, result, progress, charts, VUs, timings, output. */
export function JobPanel({ live, readOnly = false, linkToJob = false, outputHeight, tab: tabProp, onTab }: JobPanelProps) {
  const { job } = live;
  const { ResultBanner } = workloadOf(job);
  const [ownTab, setOwnTab] = useState<JobTab>('overview');
  const metrics = hasMetrics(live);
  const tab: JobTab = metrics ? (tabProp ?? ownTab) : 'overview';
  const selectTab = (t: JobTab) => (onTab ? onTab(t) : setOwnTab(t));
  const [stopping, setStopping] = useState(false);
  const [stopError, setStopError] = useState<ApiError>();
  const checkItems = useCheckItems(live, !readOnly);
  const active = !isTerminalStatus(job.status);
  const fetchAfter = useCallback(async (afterSeq: number, limit: number): Promise<OutputLine[]> => (await api.output(job.id, { afterSeq, limit })).lines, [job.id]);
  const elapsed = jobElapsedMs(job, Date.now());
  const verdict = verdictOf(job);
  const judgedFailed = verdict !== undefined && verdict.kind !== 'passed';

  return (
    <div className="job-panel" data-job-id={job.id} data-status={job.status}>
      <div className="job-status-line">
        <StatusBadge status={job.status} verdict={verdict} />
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
      {/* A run a `:abort` threshold stopped: the verdict banner says why. */}
      {job.error && job.error.code !== THRESHOLD_ABORT && <ErrorBox error={job.error} title={`Job ${job.status}`} />}
      {job.type === 'run' && active && <RunHeader live={live} />}
      <VerdictBanner job={job} />
      {job.result && (
        <div className={judgedFailed ? 'result-wrap verdict-failed' : 'result-wrap'} data-verdict={verdict?.kind}>
          <ResultBanner job={job} />
        </div>
      )}
      {job.result && <ReplicaResults job={job} />}
      {metrics && (
        <div className="tabs" role="tablist" aria-label="Job views">
          <button type="button" role="tab" id={`tab-overview-${job.id}`} aria-selected={tab === 'overview'} aria-controls={`panel-${job.id}`} className={tab === 'overview' ? 'active' : undefined} onClick={() => selectTab('overview')} data-testid="tab-overview">
            {job.type === 'build' ? 'Build' : job.type === 'run' ? 'Run' : 'Job'}
          </button>
          <button type="button" role="tab" id={`tab-metrics-${job.id}`} aria-selected={tab === 'metrics'} aria-controls={`panel-${job.id}`} className={tab === 'metrics' ? 'active' : undefined} onClick={() => selectTab('metrics')} data-testid="tab-metrics">
            Metrics · ASH and CPU
          </button>
        </div>
      )}
      <div id={`panel-${job.id}`} role={metrics ? 'tabpanel' : undefined} aria-labelledby={metrics ? `tab-${tab}-${job.id}` : undefined}>
        {tab === 'metrics' ? <MetricsView live={live} /> : <Overview live={live} readOnly={readOnly} active={active} elapsed={elapsed} checkItems={checkItems} fetchAfter={fetchAfter} outputHeight={outputHeight} />}
      </div>
    </div>
  );
}

interface OverviewProps {
  live: LiveJob;
  readOnly: boolean;
  active: boolean;
  elapsed: number | undefined;
  checkItems: CheckItem[] | undefined;
  fetchAfter: (afterSeq: number, limit: number) => Promise<OutputLine[]>;
  outputHeight: number | undefined;
}

/** Progress, check results, run charts, VUs, response times and output. */
function Overview({ live, readOnly, active, elapsed, checkItems, fetchAfter, outputHeight }: OverviewProps) {
  const { job } = live;
  const { RunCharts, buildWorker } = workloadOf(job);
  return (
    <>
      {live.progress && <BuildProgressView progress={live.progress} trail={live.progressTrail} elapsedMs={elapsed} workerOf={buildWorker} complete={job.status === 'completed'} />}
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
    </>
  );
}
