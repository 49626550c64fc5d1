import { flattenConfig } from '../components/JobDetails.js';
import { fmtInt } from './format.js';

/** A value's difference from the base: absolute and in per cent ("+1,234 (+5.2%)"); null when either is unknown. `fmt` writes the absolute part (whole numbers by default). */
export function delta(v: number | undefined, base: number | undefined, fmt: (n: number) => string = fmtInt): { abs: number; pct: number | null; text: string } | null {
  if (v === undefined || base === undefined) return null;
  const abs = v - base;
  const pct = base === 0 ? null : (abs / base) * 100;
  const sign = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '±');
  const text = `${sign(abs)}${fmt(Math.abs(abs))}${pct === null ? '' : ` (${sign(pct)}${Math.abs(pct).toFixed(1)}%)`}`;
  return { abs, pct, text };
}

export interface DiffRow {
  /** Dotted setting name (tprocc.vus, target.host). */
  key: string;
  /** One value per job, in the jobs' order; undefined where that job's configuration has no such setting. */
  values: (string | undefined)[];
}

/**
 * The settings whose stored values differ between the jobs' configurations
 * (secrets were redacted when stored, so they compare as "********"): every
 * dotted key of any of them, in first-seen order, the seed last.
 */
export function configDiff(configs: readonly unknown[]): DiffRow[] {
  const maps = configs.map((c) => new Map(flattenConfig(c)));
  const keys = [...new Set(maps.flatMap((m) => [...m.keys()]))];
  const rows = keys.map((key) => ({ key, values: maps.map((m) => m.get(key)) })).filter((r) => r.values.some((v) => v !== r.values[0]));
  return [...rows.filter((r) => r.key !== 'seed'), ...rows.filter((r) => r.key === 'seed')];
}

/** Jobs grouped by workload, in first-seen order: compare takes jobs of one workload only. */
export function workloadGroups<J extends { id: string; workload: string }>(jobs: readonly J[]): { workload: string; jobs: J[] }[] {
  const groups = new Map<string, J[]>();
  for (const j of jobs) (groups.get(j.workload) ?? groups.set(j.workload, []).get(j.workload)!).push(j);
  return [...groups].map(([workload, js]) => ({ workload, jobs: js }));
}
