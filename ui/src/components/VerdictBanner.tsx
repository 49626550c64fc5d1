import type { Job, ThresholdResult } from '@sledge/protocol';
import { fmtDuration } from '../util/format.js';
import { verdictOf } from '../util/verdict.js';

const condition = (r: ThresholdResult) => r.expr.replace(/:\s*abort\b.*$/i, '');

/**
 * The verdict of a judged run that failed, above its result: which
 * thresholds failed (with their values), or that a `:abort` threshold
 * stopped the run and when. Nothing for a run that passed or has none.
 */
export function VerdictBanner({ job }: { job: Job }) {
  const v = verdictOf(job);
  if (!v || v.kind === 'passed') return null;
  const aborted = v.kind === 'aborted';
  return (
    <section className={`verdict-banner ${aborted ? 'aborted' : 'failed'}`} role="alert" aria-label="Threshold verdict" data-testid="verdict-banner" data-verdict={v.kind}>
      <p className="verdict-title">
        <span aria-hidden="true">✗ </span>
        {aborted ? (
          <>
            Aborted{v.atSec !== undefined ? <> at {fmtDuration(v.atSec * 1000)} into the measured window</> : null}: threshold {v.failed[0] ? <span className="mono">{condition(v.failed[0])}</span> : null} failed
          </>
        ) : (
          <>
            Failed thresholds: {v.failed.length} of {job.thresholdResults?.length ?? v.failed.length} did not hold
          </>
        )}
      </p>
      <ul>
        {v.failed.map((r, i) => (
          <li key={i}>
            <span className="mono">{r.expr}</span> <span className="muted">{r.message}</span>
          </li>
        ))}
      </ul>
      {aborted && <p className="small muted">The run stopped early: it has no result. {job.thresholdResults && job.thresholdResults.length > 1 ? 'The other conditions were judged on the measured window up to the abort.' : ''}</p>}
    </section>
  );
}
