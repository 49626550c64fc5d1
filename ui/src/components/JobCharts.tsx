import { useMemo, useState } from 'react';
import { ENGINE_DISPLAY, TX_PROC, TX_TYPES, type TxType } from '@sledge/protocol';
import { isTerminalStatus, type LiveJob } from '../live/jobState.js';
import { EChart } from '../charts/EChart.js';
import { clientRatesOption, latencyAllLegend, latencyLegend, latencyOption, tcountOption, type Pct } from '../charts/options/tcount.js';
import { PercentileSelect } from './PercentileSelect.js';
import { boxplotOption } from '../charts/options/boxplot.js';
import { jobTimeRange } from '../charts/options/range.js';
import { paletteFor } from '../charts/options/palette.js';
import { useTheme } from '../theme.js';
import { chartableClient, chartableEngine } from '../util/runProgress.js';
import { TimingTable } from './TimingTable.js';

/** "PostgreSQL TPM", or "SQLite TPM (client-counted)" when the engine has no counter of its own. */
export function tpmLabel(live: LiveJob): string {
  const name = ENGINE_DISPLAY[live.job.engine];
  const client = live.job.result?.tpmSource === 'client' || live.job.engine === 'sqlite';
  return `${name} TPM${client ? ' (client)' : ''}`;
}

/**
 * The run charts, live or from the store (same frames either way): NOPM/TPM,
 * client tx/s by type and latency percentiles on one shared time axis.
 */
export function RunCharts({ live }: { live: LiveJob }) {
  const theme = useTheme();
  const palette = paletteFor(theme);
  // One transaction type's p50/p95/p99, or every type at one percentile.
  const [latType, setLatType] = useState<TxType | 'all'>('neworder');
  const [latPct, setLatPct] = useState<Pct>('p95');
  const all = latType === 'all';
  const raw = jobTimeRange(live.job, live, Date.now());
  // Stable while the window does not move, so unchanged charts are not rebuilt.
  const range = useMemo(() => raw, [raw?.min, raw?.max]);
  const group = `job-${live.job.id}`;
  const label = tpmLabel(live);
  const ended = isTerminalStatus(live.job.status);
  const engine = useMemo(() => chartableEngine(live.engine, ended), [live.engine, ended]);
  const client = useMemo(() => chartableClient(live.client, ended), [live.client, ended]);
  const tc = useMemo(() => tcountOption({ engine, tpmLabel: label, range, palette }), [engine, label, range, palette]);
  const rates = useMemo(() => clientRatesOption({ client, range, palette }), [client, range, palette]);
  const lat = useMemo(() => latencyOption({ latency: live.latency, range, palette, byType: all }), [live.latency, range, palette, all]);
  const latShown = useMemo(() => (latType === 'all' ? latencyAllLegend(latPct) : latencyLegend(latType)), [latType, latPct]);
  return (
    <div className="charts run-charts">
      <section className="card">
        <div className="card-head">
          <h3>NOPM and TPM per minute</h3>
          <span className="muted small" title="NOPM from the engine's new orders; TPM from its transaction counter (SQLite: counted by Sledge)">
            every {String((live.job.config as { tprocc?: { tcRefreshSec?: number } })?.tprocc?.tcRefreshSec ?? 10)} s
          </span>
        </div>
        <EChart option={tc} group={group} label={`NOPM and ${label} over time`} testId="chart-tcount" />
      </section>
      <section className="card">
        <h3>Client transactions per second by type</h3>
        <EChart option={rates} group={group} label="Client transactions per second by type" testId="chart-client" />
      </section>
      <section className="card">
        <div className="card-head">
          <h3>Latency (ms)</h3>
          <span className="inline">
            <label>
              <span className="sr-only">Transaction</span>
              <select value={latType} onChange={(e) => setLatType(e.target.value as TxType | 'all')} data-testid="latency-type">
                {TX_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {TX_PROC[t]}
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
          label={latType === 'all' ? `Latency ${latPct} of every transaction type` : `Latency p50, p95, p99 of ${TX_PROC[latType]}`}
          testId="chart-latency"
        />
      </section>
    </div>
  );
}

/** Time profile: table and box plot (p25..p75 box, median, whiskers min and p99). */
export function TimingSection({ live }: { live: LiveJob }) {
  const theme = useTheme();
  const palette = paletteFor(theme);
  const option = useMemo(() => boxplotOption(live.timings, palette), [live.timings, palette]);
  if (!live.timings.length) return null;
  return (
    <section className="card" aria-label="Response times">
      <h3>Response times (ms)</h3>
      <TimingTable rows={live.timings} />
      <EChart option={option} height={60 + 44 * live.timings.filter((r) => r.vu === 0).length} label="Response time box plot per transaction" testId="chart-boxplot" />
    </section>
  );
}
