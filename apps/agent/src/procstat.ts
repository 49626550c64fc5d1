import type { CpuLine } from '@sledge/protocol';

/**
 * Cumulative CPU time of one /proc/stat "cpu" line, in USER_HZ ticks.
 * Fields (proc(5)): user nice system idle iowait irq softirq steal guest guest_nice.
 */
export interface CpuTimes {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
  guest: number;
  guestNice: number;
}

/** cpu name ('all' for the aggregate line, else the core number) -> times. */
export type CpuSnapshot = Map<string, CpuTimes>;

/** Parse the cpu lines of /proc/stat. Older kernels have fewer columns: the missing ones are 0. */
export function parseProcStat(text: string): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  for (const line of text.split('\n')) {
    const m = /^cpu(\d*)\s+(.*)$/.exec(line);
    if (!m) continue;
    const v = m[2]!.trim().split(/\s+/).map(Number);
    const at = (i: number) => (Number.isFinite(v[i]) ? v[i]! : 0);
    out.set(m[1] === '' ? 'all' : m[1]!, {
      user: at(0),
      nice: at(1),
      system: at(2),
      idle: at(3),
      iowait: at(4),
      irq: at(5),
      softirq: at(6),
      steal: at(7),
      guest: at(8),
      guestNice: at(9),
    });
  }
  return out;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Percentages of one CPU over the interval between two snapshots.
 *
 * usr = user + nice. The kernel already counts guest time inside user (and
 * guest_nice inside nice), so guest stays in usr and is not added again;
 * the total is user+nice+system+idle+iowait+irq+softirq+steal. (mpstat
 * instead subtracts guest from %usr and prints %guest apart.) A counter
 * that goes backwards (iowait can, on some kernels) counts as 0. Values are
 * rounded to 2 decimals, as mpstat prints them.
 */
export function cpuLine(cpu: string, a: CpuTimes, b: CpuTimes): CpuLine {
  const d = (k: keyof CpuTimes) => Math.max(0, b[k] - a[k]);
  const usr = d('user') + d('nice');
  const parts = { usr, sys: d('system'), iowait: d('iowait'), irq: d('irq'), soft: d('softirq'), steal: d('steal'), idle: d('idle') };
  const total = parts.usr + parts.sys + parts.iowait + parts.irq + parts.soft + parts.steal + parts.idle;
  if (total === 0) return { cpu, usr: 0, sys: 0, iowait: 0, irq: 0, soft: 0, steal: 0, idle: 100 };
  const pct = (x: number) => round2((x / total) * 100);
  return {
    cpu,
    usr: pct(parts.usr),
    sys: pct(parts.sys),
    iowait: pct(parts.iowait),
    irq: pct(parts.irq),
    soft: pct(parts.soft),
    steal: pct(parts.steal),
    idle: pct(parts.idle),
  };
}

/** 'all' first, then each core present in both snapshots in numeric order (a core taken offline drops out). */
export function cpuLines(prev: CpuSnapshot, next: CpuSnapshot): CpuLine[] {
  const names = [...next.keys()].filter((k) => prev.has(k));
  names.sort((x, y) => (x === 'all' ? -1 : y === 'all' ? 1 : Number(x) - Number(y)));
  return names.map((n) => cpuLine(n, prev.get(n)!, next.get(n)!));
}
