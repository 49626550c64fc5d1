import { mixText, type Job } from '@sledge/protocol';
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
      {result.standardMix === false && result.mix && (
        <p className="help" data-testid="result-mix">
          Non-standard transaction mix ({mixText(result.mix)}): not HammerDB's 10/10/1/1/1, so this NOPM is not comparable with HammerDB's standard runs.
        </p>
      )}
      {result.targets && result.clientTpm && <PoolTable clientTpm={result.clientTpm} targets={result.targets} />}
    </section>
  );
}

/** A connect pool run: HammerDB's CLIENT SIDE TPM per transaction, over all and per pool connection. */
function PoolTable({ clientTpm, targets }: { clientTpm: Record<string, number>; targets: { name: string; sessions: number; transactions: number; clientTpm: Record<string, number> }[] }) {
  const ops = Object.keys(clientTpm);
  return (
    <table className="data compact" data-testid="pool-result" style={{ marginTop: "0.75rem" }}>
      <caption>Client-side TPM per connection (counts ÷ rampup + duration minutes)</caption>
      <thead>
        <tr>
          <th scope="col">Connection</th>
          <th scope="col" className="num">
            Sessions
          </th>
          {ops.map((o) => (
            <th key={o} scope="col" className="num">
              {o}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {targets.map((t) => (
          <tr key={t.name}>
            <th scope="row">{t.name}</th>
            <td className="num">{fmtInt(t.sessions)}</td>
            {ops.map((o) => (
              <td key={o} className="num">
                {fmtInt(t.clientTpm[o] ?? 0)}
              </td>
            ))}
          </tr>
        ))}
        <tr>
          <th scope="row">all</th>
          <td className="num">{fmtInt(targets.reduce((a, t) => a + t.sessions, 0))}</td>
          {ops.map((o) => (
            <td key={o} className="num">
              {fmtInt(clientTpm[o] ?? 0)}
            </td>
          ))}
        </tr>
      </tbody>
    </table>
  );
}
