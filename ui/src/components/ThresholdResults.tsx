import type { Job } from '@sledge/protocol';

const fmt = (n: number | null, unit: string): string => {
  if (n === null) return '—';
  const v = Number.isInteger(n) ? String(n) : Math.abs(n) >= 100 ? n.toFixed(1) : String(Number(n.toPrecision(4)));
  return unit === '%' ? `${v}%` : unit ? `${v} ${unit}` : v;
};

/**
 * A job's thresholds and baseline check: each condition with its value and
 * pass/fail, and the verdict. Before the job ends: the conditions it will be
 * judged on.
 */
export function ThresholdResults({ job }: { job: Job }) {
  const cfg = (job.config ?? {}) as { thresholds?: string[]; baseline?: { jobId?: string; profileId?: number; maxRegression?: number } };
  const results = job.thresholdResults;
  if (!results && !cfg.thresholds?.length && !cfg.baseline) return null;
  return (
    <section className="card thresholds" aria-labelledby="thresholds-h" data-testid="threshold-results">
      <h3 id="thresholds-h">
        Thresholds{' '}
        {results ? (
          <span className={`verdict ${job.passed ? 'good' : 'bad'}`} data-testid="threshold-verdict">
            {job.passed ? '✓ passed' : '✗ failed'} ({results.filter((r) => r.ok).length} of {results.length} held)
          </span>
        ) : (
          <span className="muted">judged when the run ends</span>
        )}
      </h3>
      {results ? (
        <table className="data compact">
          <thead>
            <tr>
              <th scope="col">Condition</th>
              <th scope="col" className="num">
                Actual
              </th>
              <th scope="col" className="num">
                Limit
              </th>
              <th scope="col">Result</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r, i) => (
              <tr key={i} data-ok={r.ok}>
                <th scope="row" className="mono">
                  {r.expr}
                </th>
                <td className="num">{fmt(r.actual, r.unit)}</td>
                <td className="num">{fmt(r.limit, r.unit)}</td>
                <td className={`result ${r.ok ? 'good' : 'bad'}`}>{r.ok ? '✓ pass' : '✗ fail'}</td>
                <td className="muted">{r.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <ul className="mono">
          {cfg.thresholds?.map((t, i) => <li key={i}>{t}</li>)}
          {cfg.baseline && (
            <li>
              regression vs {cfg.baseline.jobId ? `job ${cfg.baseline.jobId}` : `profile ${String(cfg.baseline.profileId)}`} ≤ {((cfg.baseline.maxRegression ?? 0.025) * 100).toFixed(2)}%
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
