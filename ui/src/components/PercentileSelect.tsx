import { PCTS, type Pct } from '../charts/options/tcount.js';

/** The latency percentile picker (p50/p95/p99) beside a latency chart. */
export function PercentileSelect({ value, onChange, testId }: { value: Pct; onChange: (p: Pct) => void; testId: string }) {
  return (
    <label>
      <span className="sr-only">Percentile</span>
      <select value={value} onChange={(e) => onChange(e.target.value as Pct)} data-testid={testId}>
        {PCTS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
    </label>
  );
}
