import { useMemo } from 'react';
import type { CpuSample, SystemInfo } from '@sledge/protocol';
import { EChart } from '../../charts/EChart.js';
import { cpuHeatOption, cpuLinesOption, heatHeight } from '../../charts/options/cpu.js';
import type { ChartPalette } from '../../charts/options/palette.js';
import type { TimeRange } from '../../charts/options/types.js';
import { allCpu, busyPct, heatStrip } from '../../metrics/cpu.js';
import { fmtNum } from '../../util/format.js';

const GiB = 1024 ** 3;

function SystemLine({ system }: { system: SystemInfo | undefined }) {
  if (!system) return <span className="muted small">system info not recorded</span>;
  return (
    <span className="small" data-testid="cpu-system">
      <strong>{system.hostname}</strong> · {system.cpuModel} · {system.cpuCount} CPUs · {fmtNum(system.memoryBytes / GiB, 1)} GiB · {system.os} {system.kernel}
    </span>
  );
}

export interface CpuAgentProps {
  label: string;
  samples: readonly CpuSample[];
  system: SystemInfo | undefined;
  range: TimeRange | undefined;
  palette: ChartPalette;
  selection: readonly [number, number] | null;
  group: string;
  /** The agent on the database host (its cores draw the vCPU line). */
  database: boolean;
}

/** One agent: system info, all-CPU time by kind, and the per-core heat strip, on the load chart's time axis. */
export function CpuAgent({ label, samples, system, range, palette, selection, group, database }: CpuAgentProps) {
  const lines = useMemo(() => cpuLinesOption({ samples, range, palette, selection }), [samples, range, palette, selection]);
  const strip = useMemo(() => heatStrip(samples), [samples]);
  const heat = useMemo(() => cpuHeatOption({ strip, range, palette }), [strip, range, palette]);
  const summary = useMemo(() => {
    if (!samples.length) return null;
    const busy = samples.map((s) => busyPct(allCpu(s)));
    const mean = busy.reduce((a, b) => a + b, 0) / busy.length;
    const io = samples.reduce((a, s) => ({ iops: a.iops + s.iops, mbps: a.mbps + s.mbps }), { iops: 0, mbps: 0 });
    return { mean, max: Math.max(...busy), iops: io.iops / samples.length, mbps: io.mbps / samples.length };
  }, [samples]);
  return (
    <section className="card cpu-agent" aria-label={`CPU of ${label}`} data-testid="cpu-agent" data-label={label} data-samples={samples.length}>
      <div className="card-head">
        <h3>
          CPU · {label}
          {database && <span className="badge">database host</span>}
        </h3>
        {summary && (
          <span className="muted small">
            busy {fmtNum(summary.mean, 0)}% avg, {fmtNum(summary.max, 0)}% max · disk {fmtNum(summary.iops, 0)} IOPS, {fmtNum(summary.mbps, 1)} MB/s avg
          </span>
        )}
      </div>
      <p className="cpu-system-line">
        <SystemLine system={system} />
      </p>
      <EChart option={lines} group={group} height={190} label={`All-CPU usr, sys, iowait, irq, soft and steal of ${label}`} testId="chart-cpu" />
      <EChart option={heat} group={group} height={heatHeight(strip.cores.length)} label={`Per-core % busy over time on ${label}`} testId="chart-cpu-heat" data={{ cores: strip.cores.length }} />
    </section>
  );
}
