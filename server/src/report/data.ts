import type { JobStore } from '@sledge/jobstore';
import {
  SledgeError,
  redact,
  type AshReport,
  type ClientSample,
  type CpuSample,
  type EngineSample,
  type Job,
  type OutputLine,
  type TimingRow,
} from '@sledge/protocol';
import { ashReport } from '../engine/ash-report.js';

/** Output lines a report carries (the end of the log: where the result lines are). */
export const REPORT_OUTPUT_LINES = 300;

export interface CpuSeries {
  /** The agent's label ("db-host", "myhost (local)"). */
  source: string;
  /** The 'all' line of each sample, in time order. */
  samples: { ts: number; usr: number; sys: number; iowait: number; idle: number; other: number }[];
  cpuCount?: number;
  cpuModel?: string;
}

/** Everything one job's report shows, read from the job store (the config redacted once more). */
export interface ReportData {
  job: Job;
  engine: EngineSample[];
  client: ClientSample[];
  /** Summary rows of the time profile (vu 0), largest share of time first. */
  timings: TimingRow[];
  phases: { ts: number; label: string }[];
  ash: AshReport | null;
  cpu: CpuSeries[];
  output: OutputLine[];
  outputTotal: number;
}

export function requireJob(store: JobStore, id: string, field = 'id'): Job {
  const job = store.getJob(id);
  if (!job) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field });
  return job;
}

/** Read a job's report data (throws SLEDGE_E_NOT_FOUND for an unknown id). */
export function reportData(store: JobStore, id: string): ReportData {
  const stored = requireJob(store, id);
  // Configs are stored redacted; redacting again costs nothing and covers keys added since.
  const job: Job = { ...stored, config: redact(stored.config) };
  const tc = store.getTcount(id);
  const kinds = new Set(store.metricKinds(id));
  const total = store.getOutput(id, { limit: 1 }).total;
  const out = store.getOutput(id, { afterSeq: Math.max(0, total - REPORT_OUTPUT_LINES), limit: REPORT_OUTPUT_LINES });
  // A report is a file that travels: the ASH the public may see (ash-visibility.ts), whoever downloads it.
  const ash = kinds.has('ash') || kinds.has('sampler') ? ashReport(store, id, {}, undefined, 'public') : null;
  return {
    job,
    engine: tc.engine,
    client: tc.client,
    timings: store
      .getTimings(id, { vu: 0 })
      .filter((r) => r.vu === 0)
      .sort((a, b) => b.ratioPct - a.ratioPct),
    phases: kinds.has('phase') ? store.getMetrics(id, 'phase', {}).map((m) => m.data as { ts: number; label: string }) : [],
    ash: ash && (ash.series.length || ash.status.length) ? ash : null,
    cpu: kinds.has('cpu') ? cpuSeries(store, id) : [],
    output: out.lines,
    outputTotal: out.total,
  };
}

/** CPU samples by agent: the all-cores line of each sample. */
function cpuSeries(store: JobStore, id: string): CpuSeries[] {
  const system = store.getSystem(id);
  const by = new Map<string, CpuSeries>();
  for (const row of store.getMetrics(id, 'cpu', {})) {
    const source = row.source ?? 'agent';
    const s = (row.data as CpuSample).cpus.find((c) => c.cpu === 'all');
    if (!s) continue;
    let series = by.get(source);
    if (!series) {
      const info = system[source] ?? {};
      series = { source, samples: [], ...(typeof info['cpuCount'] === 'number' ? { cpuCount: info['cpuCount'] } : {}), ...(typeof info['cpuModel'] === 'string' ? { cpuModel: info['cpuModel'] } : {}) };
      by.set(source, series);
    }
    series.samples.push({ ts: row.ts, usr: s.usr, sys: s.sys, iowait: s.iowait, idle: s.idle, other: s.irq + s.soft + s.steal });
  }
  // The database host's agent first: a local agent's label ends in "(local)".
  return [...by.values()].sort((a, b) => Number(b.source.endsWith('(local)')) - Number(a.source.endsWith('(local)')) || a.source.localeCompare(b.source));
}
