import { useMemo } from 'react';
import { isTerminalStatus, type LiveJob } from '../live/jobState.js';
import { phasesOf } from '../metrics/samples.js';
import { useNow } from '../state/throttle.js';
import { fmtDuration, fmtInt } from '../util/format.js';
import { runPlan, runProgress, type RunStage } from '../util/runProgress.js';
import { workloadOf } from '../workloads/registry.js';

const STAGE: Record<RunStage, string> = {
  waiting: 'Connecting',
  rampup: 'Rampup',
  measuring: 'Measuring',
  ending: 'Ending',
  running: 'Running',
  ended: 'Ended',
};

/**
 * "How is it going" while a run is live: its workload's live figures (TPROC-C: the latest NOPM and TPM), elapsed and
 * remaining time, and a bar over the planned window with its rampup and
 * measured parts (the test driver: the share of its transactions done).
 */
export function RunHeader({ live }: { live: LiveJob }) {
  const { job } = live;
  const active = !isTerminalStatus(job.status);
  const now = useNow(1000, active);
  const phaseList = live.metrics['phase'];
  const phases = useMemo(() => phasesOf({ phase: phaseList ?? [] }), [phaseList]);
  const plan = runPlan(job);
  const p = runProgress(job, phases, live.vus, now);
  const { LiveKpis, runDone } = workloadOf(job);
  // A workload that counts its own progress (TPROC-H: queries done of those planned) says so.
  const own = !plan.timed && runDone ? runDone(live) : undefined;
  if (own) p.done = isTerminalStatus(job.status) && job.status === 'completed' ? 1 : own.done;
  const pct = Math.round(p.done * 1000) / 10;
  return (
    <section className="run-header" aria-label="Run progress" data-testid="run-header" data-stage={p.stage}>
      <div className="kpis">
        <LiveKpis live={live} />
        <div>
          <span className="big" data-testid="run-elapsed">
            {fmtDuration(p.elapsedMs)}
          </span>
          <span className="unit">elapsed</span>
        </div>
        {p.remainingMs !== undefined && (
          <div>
            <span className="big" data-testid="run-remaining">
              {fmtDuration(p.remainingMs)}
            </span>
            <span className="unit">remaining</span>
          </div>
        )}
      </div>
      <div className="run-progress">
        <div className="run-progress-label">
          <strong data-testid="run-stage">{job.status === 'queued' ? 'Queued' : STAGE[p.stage]}</strong>
          {p.phaseMs && (
            <span className="muted">
              {' '}
              {fmtDuration(p.phaseMs.elapsed)} of {fmtDuration(p.phaseMs.total)}
            </span>
          )}
          {!plan.timed && <span className="muted"> {pct}% of {own ? own.text : `${fmtInt(plan.vus * plan.totalIterations)} transactions`}</span>}
        </div>
        <div
          className="run-bar"
          role="progressbar"
          aria-label={plan.timed ? 'Rampup and measured time' : own ? 'Share done' : 'Transactions done'}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={plan.timed ? `${STAGE[p.stage]}, ${pct}% of rampup and measured time` : own ? `${pct}%: ${own.text}` : `${pct}% of the transactions`}
          data-testid="run-bar"
        >
          {plan.timed && p.rampupShare > 0 && <span className="seg seg-rampup" style={{ width: `${p.rampupShare * 100}%` }} />}
          <span className="seg seg-measure" style={{ left: `${p.rampupShare * 100}%`, width: `${(1 - p.rampupShare) * 100}%` }} />
          <span className="fill" style={{ width: `${p.done * 100}%` }} />
        </div>
        {plan.timed && (
          <div className="run-bar-legend muted small">
            {plan.rampupSec > 0 && <span style={{ width: `${p.rampupShare * 100}%` }}>rampup {fmtDuration(plan.rampupSec * 1000)}</span>}
            <span>measured {fmtDuration(plan.durationSec * 1000)}</span>
          </div>
        )}
      </div>
    </section>
  );
}
