import type { Job } from '@sledge/protocol';
import { fmtInt } from '../../util/format.js';
import { TproccResultBanner } from '../tprocc/ResultBanner.js';
import { chbenchAnalytic, fmtPerHour, fmtSec } from './result.js';

/** TPROC-C's TEST RESULT (NOPM, TPM), then the analytic streams' figures over the same measured window. */
export function ChbenchResultBanner({ job }: { job: Job }) {
  const a = chbenchAnalytic(job);
  const interference = (job.result as { interference?: { baselineJobId: string; baselineNopm: number; ratio: number } } | null | undefined)?.interference;
  return (
    <>
      <TproccResultBanner job={job} />
      {a && (
        <section className="result-banner" aria-label="Analytic result" data-testid="analytic-banner">
          <p className="small muted" style={{ margin: 0 }}>
            Analytic streams over the measured window: queries that started and finished in it; the geometric mean is over those that returned rows.
          </p>
          <div className="result-numbers">
            <div>
              <span className="big" data-testid="result-streams" data-value={a.streams}>
                {a.streams}
              </span>
              <span className="unit">analytic stream{a.streams === 1 ? '' : 's'}</span>
            </div>
            <div>
              <span className="big" data-testid="result-qph" data-value={a.queriesPerHour}>
                {fmtPerHour(a.queriesPerHour)}
              </span>
              <span className="unit">queries/h</span>
            </div>
            <div>
              <span className="big" data-testid="result-completed" data-value={a.completedQueries}>
                {fmtInt(a.completedQueries)}
              </span>
              <span className="unit">queries completed</span>
            </div>
            <div>
              <span className="big" data-testid="result-geomean" data-value={a.geomean}>
                {a.completedQueries ? fmtSec(a.geomean) : '–'}
              </span>
              <span className="unit">s geometric mean</span>
            </div>
            {a.errors > 0 && (
              <div>
                <span className="big bad" data-testid="result-analytic-errors">
                  {a.errors}
                </span>
                <span className="unit">failed quer{a.errors === 1 ? 'y' : 'ies'}</span>
              </div>
            )}
            {interference && (
              <div title={`NOPM of this run against job ${interference.baselineJobId}'s ${interference.baselineNopm} NOPM with no analytic streams`}>
                <span className="big" data-testid="result-interference">{interference.ratio.toFixed(2)}×</span>
                <span className="unit">NOPM of the baseline</span>
              </div>
            )}
          </div>
        </section>
      )}
    </>
  );
}
