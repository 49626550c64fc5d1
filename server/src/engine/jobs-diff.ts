/**
 * HammerDB's `jobs diff base comp [true|false]` (hammerdb.md §11.1), to the
 * printed digit:
 *
 * - each profile is a map active VUs -> NOPM (a later run at the same VU
 *   count replaces an earlier one);
 * - only the VU counts present in both are compared;
 * - unweighted: avg = sum / matched, ratio = (avg_comp - avg_base) / avg_base;
 * - weighted: w = max(1, avu / phys_cores), phys_cores = ceil(cpucount / 2)
 *   from the base profile's first job's system information, avg = sum(w·nopm) / sum(w);
 * - averages print as `%.0f`; the ratio as a signed string with 2 decimals,
 *   or 4 when 2 would show 0.00 (exactly 0 prints "0.00").
 */
import type { ProfilePoint } from '@sledge/jobstore';

/**
 * C printf `%.<d>f` (Tcl `format`): the exact binary value rounded to d
 * decimals, exact ties to even. JavaScript's toFixed also rounds the exact
 * value but breaks ties away from zero (1001.5 -> "1002" both; 1002.5 ->
 * printf "1002", toFixed "1003").
 */
export function tclFixed(x: number, d: number): string {
  const s = x.toFixed(d);
  if (!Number.isFinite(x)) return s;
  const ext = Math.abs(x).toFixed(Math.min(100, d + 60));
  const dot = ext.indexOf('.');
  const tail = ext.slice(dot + 1 + d);
  if (!/^50*$/.test(tail)) return s;
  const kept = ext.slice(0, d === 0 ? dot : dot + 1 + d);
  const last = Number(kept[kept.length - 1]);
  if (last % 2 === 1) return s;
  return `${x < 0 ? '-' : ''}${kept}`;
}

/** HammerDB's signed ratio: "+0.05", "-0.05", "+0.0031", "-0.0031", "0.00". */
export function signedRatio(r: number): string {
  const s = tclFixed(r, 2);
  if (s === '0.00' || s === '-0.00') {
    if (r === 0) return '0.00';
    const s4 = `${r >= 0 ? '+' : ''}${tclFixed(r, 4)}`;
    return s4 === '+0.0000' || s4 === '-0.0000' ? '0.0000' : s4;
  }
  return r > 0 ? `+${s}` : s;
}

export interface WeightedDiff {
  physCores: number;
  avgBase: number;
  avgComp: number;
  ratio: number;
  line: string;
}

export interface JobsDiffFigures {
  matched: number;
  activeVus: number[];
  /** Unweighted means over the matched counts. */
  avgBase: number;
  avgComp: number;
  /** The returned ratio: the weighted one when weighting was asked for and the CPU count is known. */
  ratio: number;
  /** `ratio` as HammerDB returns it. */
  diff: string;
  /** The unweighted line. */
  line: string;
  /** Every line HammerDB prints, in order. */
  lines: string[];
  weighted?: WeightedDiff;
}

/** HammerDB's jobs diff, or why there is none. */
export type JobsDiff = JobsDiffFigures | { missing: string };

export interface JobsDiffOptions {
  /** `jobs diff base comp true`. */
  weighted?: boolean;
  /** Logical CPUs of the base profile's first job (JOBSYSTEM.cpucount); undefined when unknown. */
  cpuCount?: number;
  /** How the base is named in the no-match message. */
  baseName?: string;
}

/** Active VUs -> NOPM; a later point at the same count replaces an earlier one. */
function pointMap(points: readonly ProfilePoint[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const p of [...points].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))) m.set(p.activeVus, Math.trunc(p.nopm));
  return m;
}

function weightedFigures(base: Map<number, number>, comp: Map<number, number>, vus: number[], cpuCount: number): WeightedDiff | undefined {
  const physCores = Math.ceil(cpuCount / 2);
  let b = 0;
  let c = 0;
  let ws = 0;
  for (const av of vus) {
    const w = Math.max(1, av / physCores);
    b += w * base.get(av)!;
    c += w * comp.get(av)!;
    ws += w;
  }
  if (ws <= 0 || b / ws <= 0) return undefined;
  const avgBase = b / ws;
  const avgComp = c / ws;
  const ratio = (avgComp - avgBase) / avgBase;
  const line = `Profiles compared (weighted linear, no cap): matched=${vus.length}, phys_cores=${physCores}, avg_base=${tclFixed(avgBase, 0)}, avg_comp=${tclFixed(avgComp, 0)}`;
  return { physCores, avgBase, avgComp, ratio, line };
}

export function jobsDiff(basePoints: readonly ProfilePoint[], compPoints: readonly ProfilePoint[], opts: JobsDiffOptions | string = {}): JobsDiff {
  const o: JobsDiffOptions = typeof opts === 'string' ? { baseName: opts } : opts;
  const base = pointMap(basePoints);
  const comp = pointMap(compPoints);
  const vus = [...base.keys()].filter((v) => comp.has(v)).sort((a, b) => a - b);
  if (!vus.length) {
    const ran = (m: Map<number, number>) => [...m.keys()].sort((a, b) => a - b).join(', ') || 'none';
    return { missing: `no active-VU count in common with ${o.baseName ?? 'the base'} (it ran ${ran(base)}; this run ${ran(comp)})` };
  }
  const avgBase = vus.reduce((a, v) => a + base.get(v)!, 0) / vus.length;
  const avgComp = vus.reduce((a, v) => a + comp.get(v)!, 0) / vus.length;
  if (avgBase <= 0) return { missing: `${o.baseName ?? 'the base'} has mean NOPM 0 over the matched VU counts` };
  const unweighted = (avgComp - avgBase) / avgBase;
  const line = `Profiles compared (unweighted): matched=${vus.length}, avg_base=${tclFixed(avgBase, 0)}, avg_comp=${tclFixed(avgComp, 0)}`;
  const lines = [line];
  let weighted: WeightedDiff | undefined;
  if (o.weighted) {
    if (o.cpuCount === undefined || !Number.isInteger(o.cpuCount) || o.cpuCount < 1) lines.push('Error: CPU-weighted requested but logical CPU count not found; using unweighted only');
    else {
      weighted = weightedFigures(base, comp, vus, o.cpuCount);
      if (weighted) lines.push(weighted.line);
    }
  }
  const ratio = weighted ? weighted.ratio : unweighted;
  return { matched: vus.length, activeVus: vus, avgBase, avgComp, ratio, diff: signedRatio(ratio), line, lines, ...(weighted ? { weighted } : {}) };
}
