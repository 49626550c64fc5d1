import type { CpuLine, CpuSample, SystemInfo } from '@sledge/protocol';
import { bucketMsFor } from './ash.js';

/** The per-core lines of a sample ('all' left out), in core order. */
export function cores(s: CpuSample): CpuLine[] {
  return s.cpus.filter((c) => c.cpu !== 'all').sort((a, b) => Number(a.cpu) - Number(b.cpu));
}

/** The all-CPU line of a sample (the mean of the cores when the agent sent none). */
export function allCpu(s: CpuSample): CpuLine {
  const all = s.cpus.find((c) => c.cpu === 'all');
  if (all) return all;
  const cs = cores(s);
  const n = Math.max(1, cs.length);
  const mean = (k: keyof Omit<CpuLine, 'cpu'>) => cs.reduce((a, c) => a + c[k], 0) / n;
  return { cpu: 'all', usr: mean('usr'), sys: mean('sys'), iowait: mean('iowait'), irq: mean('irq'), soft: mean('soft'), steal: mean('steal'), idle: mean('idle') };
}

/** % of the interval the CPU was not idle. */
export const busyPct = (l: CpuLine): number => Math.min(100, Math.max(0, 100 - l.idle));

export interface HeatStrip {
  /** Core names, 'cpu0'.. in order (the strip's rows). */
  cores: string[];
  /** [from (unix ms), core index, mean % busy, to (unix ms)] */
  cells: [number, number, number, number][];
}

/** The agent's sampling interval: the smallest gap between its first samples (1 s when unknown). */
export function sampleInterval(samples: readonly CpuSample[]): number {
  let best = Infinity;
  for (let i = 1; i < Math.min(samples.length, 20); i++) {
    const d = samples[i]!.ts - samples[i - 1]!.ts;
    if (d > 0 && d < best) best = d;
  }
  return Number.isFinite(best) ? Math.max(100, Math.min(60_000, best)) : 1000;
}

/** Columns a strip draws at most; longer runs average samples into buckets. */
export const HEAT_COLUMNS = 600;

/**
 * Cores x time, % busy. A sample stamped t measured the time since the
 * previous sample (the first one: one interval), so each cell spans exactly
 * that and a late sample leaves no gap. Beyond 600 samples, samples are
 * averaged into at most 600 equal buckets so long runs stay light.
 */
export function heatStrip(samples: readonly CpuSample[]): HeatStrip {
  if (!samples.length) return { cores: [], cells: [] };
  const interval = sampleInterval(samples);
  const n = Math.max(...samples.map((s) => cores(s).length));
  const names = Array.from({ length: n }, (_, i) => `cpu${i}`);
  const cells: [number, number, number, number][] = [];
  if (samples.length <= HEAT_COLUMNS) {
    samples.forEach((s, k) => {
      const from = k > 0 ? samples[k - 1]!.ts : s.ts - interval;
      cores(s).forEach((c, i) => cells.push([from, i, Math.round(busyPct(c) * 10) / 10, s.ts]));
    });
    return { cores: names, cells };
  }
  const from = samples[0]!.ts - interval;
  const bucketMs = bucketMsFor(samples[samples.length - 1]!.ts - from);
  const sums = new Map<number, { sum: number[]; count: number[] }>();
  for (const s of samples) {
    const b = Math.floor((s.ts - interval / 2 - from) / bucketMs) * bucketMs + from;
    let acc = sums.get(b);
    if (!acc) sums.set(b, (acc = { sum: new Array<number>(n).fill(0), count: new Array<number>(n).fill(0) }));
    cores(s).forEach((c, i) => {
      acc.sum[i]! += busyPct(c);
      acc.count[i]! += 1;
    });
  }
  for (const [ts, acc] of [...sums.entries()].sort((a, b) => a[0] - b[0])) {
    for (let i = 0; i < n; i++) if (acc.count[i]) cells.push([ts, i, Math.round((acc.sum[i]! / acc.count[i]!) * 10) / 10, ts + bucketMs]);
  }
  return { cores: names, cells };
}

const LOCAL = new Set(['localhost', '127.0.0.1', '::1', '']);

/**
 * The agent whose core count draws the vCPU line: the one on the database
 * host. A target on this machine (localhost, a file) picks the server's own
 * agent (labelled "(local)"); otherwise an agent whose label or hostname
 * names the target host; else the first agent with samples.
 */
export function databaseAgent(labels: readonly string[], systems: Record<string, SystemInfo>, targetHost: string | undefined): string | undefined {
  if (!labels.length) return undefined;
  const host = (targetHost ?? '').toLowerCase();
  if (LOCAL.has(host)) {
    const local = labels.find((l) => l.endsWith('(local)'));
    if (local) return local;
  }
  const named = labels.find((l) => {
    const h = systems[l]?.hostname.toLowerCase();
    return host !== '' && (l.toLowerCase().includes(host) || h === host || (h !== undefined && h.split('.')[0] === host.split('.')[0]));
  });
  return named ?? labels[0];
}

/** vCPUs of an agent: the cores in its first sample, else its system info. */
export function vcpusOf(samples: readonly CpuSample[] | undefined, system: SystemInfo | undefined): number | undefined {
  const first = samples?.[0];
  if (first) {
    const n = cores(first).length;
    if (n > 0) return n;
  }
  return system?.cpuCount;
}
