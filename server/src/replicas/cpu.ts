import os from 'node:os';
import type { CpuLine, CpuSample, SystemInfo } from '@sledge/protocol';

type Times = os.CpuInfo['times'];
const pct = (x: number, total: number) => (total > 0 ? Math.round((x / total) * 1000) / 10 : 0);

/**
 * A replica's machine CPU as a CPU agent reports it (per core and 'all', % of
 * the interval since the last reading), from os.cpus(): user+nice, sys, irq,
 * idle (Node does not split iowait, softirq or steal out: they read 0).
 * The primary records these samples with the job like a CPU agent's.
 */
export class CpuMeter {
  private last = os.cpus().map((c) => c.times);

  sample(): CpuSample {
    const now = os.cpus().map((c) => c.times);
    const sum: Times = { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 };
    const lines: CpuLine[] = now.map((t, i) => {
      const p = this.last[i] ?? t;
      const d: Times = { user: t.user - p.user, nice: t.nice - p.nice, sys: t.sys - p.sys, idle: t.idle - p.idle, irq: t.irq - p.irq };
      for (const k of Object.keys(sum) as (keyof Times)[]) sum[k] += d[k];
      return line(String(i), d);
    });
    this.last = now;
    return { ts: Date.now(), cpus: [line('all', sum), ...lines], iops: 0, mbps: 0 };
  }
}

function line(cpu: string, d: Times): CpuLine {
  const total = d.user + d.nice + d.sys + d.idle + d.irq;
  return { cpu, usr: pct(d.user + d.nice, total), sys: pct(d.sys, total), iowait: 0, irq: pct(d.irq, total), soft: 0, steal: 0, idle: pct(d.idle, total) };
}

/** Busy % of a sample's 'all' line. */
export const busyPct = (s: CpuSample): number | null => {
  const all = s.cpus.find((c) => c.cpu === 'all');
  return all ? Math.round((100 - all.idle) * 10) / 10 : null;
};

export function systemInfo(): SystemInfo {
  const cpus = os.cpus();
  return { hostname: os.hostname(), cpuModel: cpus[0]?.model ?? 'unknown', cpuCount: cpus.length, memoryBytes: os.totalmem(), os: `${os.type()} ${os.release()}`, kernel: os.release() };
}
