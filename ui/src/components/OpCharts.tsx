import { useMemo, useState } from 'react';
import type { LiveJob } from '../live/jobState.js';
import { isTerminalStatus } from '../live/jobState.js';
import { EChart } from '../charts/EChart.js';
import { clientRatesOption, latencyAllLegend, latencyLegend, latencyOption, type ChartOp, type Pct } from '../charts/options/tcount.js';
import type { ChartPalette } from '../charts/options/palette.js';
import type { TimeRange } from '../charts/options/types.js';
import { jobTimeRange } from '../charts/options/range.js';
import { chartableClient } from '../util/runProgress.js';
import { PercentileSelect } from './PercentileSelect.js';

/** What the run charts of one job share: its time window (stable while it does not move) and its chart group. */
export function useRunChartFrame(live: LiveJob): { range: TimeRange | undefined; group: string; ended: boolean } {
  const raw = jobTimeRange(live.job, live, Date.now());
  // Stable while the window does not move, so unchanged charts are not rebuilt.
  const range = useMemo(() => raw, [raw?.min, raw?.max]);
  return { range, group: `job-${live.job.id}`, ended: isTerminalStatus(live.job.status) };
}

interface OpChartProps {
  live: LiveJob;
  /** The job's workload operations (its module's `ops`). */
  ops: readonly ChartOp[];
  range: TimeRange | undefined;
  group: string;
  palette: ChartPalette;
}

/** Client operations per second, one stacked series per operation of the workload. */
export function ClientRatesCard({ live, ops, range, group, palette }: OpChartProps) {
  const ended = isTerminalStatus(live.job.status);
  const client = useMemo(() => chartableClient(live.client, ended), [live.client, ended]);
  const rates = useMemo(() => clientRatesOption({ client, ops, range, palette }), [client, ops, range, palette]);
  return (
    <section className="card">
      <h3>Client transactions per second by type</h3>
      <EChart option={rates} group={group} label="Client transactions per second by type" testId="chart-client" />
    </section>
  );
}

/** Latency percentiles: one operation's p50/p95/p99, or every operation at one percentile. */
export function LatencyCard({ live, ops, range, group, palette }: OpChartProps) {
  const [latType, setLatType] = useState<string>(ops[0]?.id ?? 'all');
  const [latPct, setLatPct] = useState<Pct>('p95');
  const all = latType === 'all';
  const lat = useMemo(() => latencyOption({ latency: live.latency, ops, range, palette, byType: all }), [live.latency, ops, range, palette, all]);
  const latShown = useMemo(() => (all ? latencyAllLegend(ops, latPct) : latencyLegend(ops, latType)), [ops, all, latType, latPct]);
  return (
    <section className="card">
      <div className="card-head">
        <h3>Latency (ms)</h3>
        <span className="inline">
          <label>
            <span className="sr-only">Transaction</span>
            <select value={latType} onChange={(e) => setLatType(e.target.value)} data-testid="latency-type">
              {ops.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
              <option value="all">All types</option>
            </select>
          </label>
          {all && <PercentileSelect value={latPct} onChange={setLatPct} testId="latency-pct" />}
        </span>
      </div>
      <EChart
        option={lat}
        overlay={latShown}
        group={group}
        label={all ? `Latency ${latPct} of every transaction type` : `Latency p50, p95, p99 of ${ops.find((o) => o.id === latType)?.label ?? latType}`}
        testId="chart-latency"
      />
    </section>
  );
}
