import type { Job } from '@sledge/protocol';
import { fmtInt, fmtNum } from '../../util/format.js';
import { tproccResult } from './result.js';

/** The TEST RESULT line with NOPM and TPM, as HammerDB prints it at the end of a timed run. */
export function TproccResultBanner({ job }: { job: Job }) {
  const result = tproccResult(job);
  if (!result) return null;
  return (
    <section className="result-banner" aria-label="Test result" data-testid="result-banner">
      <p className="result-line" data-testid="result-line">
        {result.line}
      </p>
      <div className="result-numbers">
        <div>
          <span className="big" data-testid="result-nopm" data-value={result.nopm}>
            {fmtInt(result.nopm)}
          </span>
          <span className="unit">NOPM</span>
        </div>
        <div>
          <span className="big" data-testid="result-tpm" data-value={result.tpm}>
            {fmtInt(result.tpm)}
          </span>
          <span className="unit">TPM{result.tpmSource === 'client' ? ' (client-counted)' : ''}</span>
        </div>
        <div>
          <span className="big">{fmtInt(result.activeVus)}</span>
          <span className="unit">active VUs</span>
        </div>
        <div>
          <span className="big">{fmtNum(result.measuredSeconds, 0)}</span>
          <span className="unit">seconds measured</span>
        </div>
        {result.clientCpuMsPer1000Tx !== undefined && (
          <div title="Client CPU per 1000 transactions: the client must never be the bottleneck">
            <span className="big">{fmtNum(result.clientCpuMsPer1000Tx, 1)}</span>
            <span className="unit">client CPU ms / 1000 tx</span>
          </div>
        )}
      </div>
    </section>
  );
}
