import type { Job } from '@sledge/protocol';
import { fmtMetric, fmtSec, tprochResult } from './result.js';
import { engineDoes, useCapabilities } from '../../state/capabilities.js';

/**
 * HammerDB's headline (the geometric mean of query times returning rows),
 * then the TPC-H metrics Sledge computes from the same run, labelled as ours
 * and not audited, with the note on how they were computed.
 */
export function TprochResultBanner({ job }: { job: Job }) {
  const r = tprochResult(job);
  // DOP only where the engine has a degree of parallelism (the server's capabilities); SQLite and MySQL ignore it.
  const dop = engineDoes(job.engine, 'tproch', 'dop', useCapabilities());
  if (!r) return null;
  const metrics: [string, string, number | undefined][] = [
    ['power', 'Power@Size', r.powerAtSize],
    ['throughput', 'Throughput@Size', r.throughputAtSize],
    ['qphh', 'QphH@Size', r.qphh],
  ];
  return (
    <section className="result-banner" aria-label="Test result" data-testid="result-banner">
      <p className="result-line" data-testid="result-line">
        {r.line}
      </p>
      <div className="result-numbers">
        <div>
          <span className="big" data-testid="result-geomean" data-value={r.geomean}>
            {fmtSec(r.geomean)}
          </span>
          <span className="unit">s geometric mean{r.mode === 'throughput' ? ' (slowest stream)' : ''}</span>
        </div>
        <div>
          <span className="big" data-testid="result-elapsed" data-value={r.elapsedSeconds}>
            {r.elapsedSeconds.toFixed(1)}
          </span>
          <span className="unit">s elapsed ({r.mode} test)</span>
        </div>
        <div>
          <span className="big">SF {r.scaleFactor}</span>
          <span className="unit" data-testid="result-scale">
            {r.standardScale ? 'standard scale factor' : 'non-standard scale factor'} · {r.streams} stream{r.streams === 1 ? '' : 's'}
            {dop ? ` · DOP ${r.dop}` : ''}
          </span>
        </div>
        {r.errors > 0 && (
          <div>
            <span className="big bad" data-testid="result-errors">
              {r.errors}
            </span>
            <span className="unit">failed quer{r.errors === 1 ? 'y' : 'ies'}</span>
          </div>
        )}
      </div>
      <div className="tpch-metrics" aria-label="TPC-H metrics (Sledge, not audited)">
        <p className="small muted tpch-metrics-head">
          TPC-H metrics <span className="badge" title="Computed by Sledge as the TPC-H specification defines them; not an audited TPC-H result">Sledge, not audited</span>
          {!r.standardScale && <span className="badge">non-standard SF</span>}
          {r.validation && <span className="badge">validation parameters</span>}
        </p>
        <div className="result-numbers">
          {metrics.map(([key, title, v]) => (
            <div key={key}>
              <span className="big" data-testid={`result-${key}`} data-value={v ?? ''}>
                {fmtMetric(v)}
              </span>
              <span className="unit">{title}</span>
            </div>
          ))}
        </div>
        {r.metricsNote && (
          <p className="small muted" data-testid="result-metrics-note">
            {r.metricsNote}
          </p>
        )}
      </div>
    </section>
  );
}
