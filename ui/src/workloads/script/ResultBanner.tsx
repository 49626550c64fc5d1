import type { Job } from '@sledge/protocol';
import { fmtInt, fmtNum } from '../../util/format.js';
import { scriptResult } from './jobs.js';

/** The TEST RESULT line with TPS (pgbench's tps, no connection time in the window), transactions and failures. */
export function ScriptResultBanner({ job }: { job: Job }) {
  const r = scriptResult(job);
  if (!r) return null;
  return (
    <section className="result-banner" aria-label="Test result" data-testid="result-banner">
      <p className="result-line" data-testid="result-line">
        {r.line}
      </p>
      <div className="result-numbers">
        <div>
          <span className="big" data-testid="result-tps" data-value={r.tps}>
            {fmtNum(r.tps, 1)}
          </span>
          <span className="unit">TPS</span>
        </div>
        <div>
          <span className="big" data-testid="result-transactions">
            {fmtInt(r.transactions)}
          </span>
          <span className="unit">transactions</span>
        </div>
        <div>
          <span className="big" data-testid="result-failed">
            {fmtInt(r.failed)}
          </span>
          <span className="unit">failed</span>
        </div>
        <div>
          <span className="big">{fmtInt(r.activeVus)}</span>
          <span className="unit">VUs</span>
        </div>
        <div>
          <span className="big">{fmtNum(r.measuredSeconds, 0)}</span>
          <span className="unit">seconds measured</span>
        </div>
        <div title="pgbench's :scale the scripts ran with">
          <span className="big">{fmtInt(r.scale)}</span>
          <span className="unit">scale</span>
        </div>
      </div>
    </section>
  );
}
