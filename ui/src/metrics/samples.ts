import type { AshSample, CpuSample, SamplerStatus, SystemInfo } from '@sledge/protocol';

/**
 * Typed views of a job's stored metric samples (snapshot `metrics` by kind,
 * then live `metric` frames): each item is `{ ts, source?, data }` with `data`
 * typed by the kind.
 */
export interface MetricItem<T> {
  ts: number;
  source?: string;
  data: T;
}

export type Phase = { ts: number; label: string };

const items = <T>(metrics: Record<string, unknown[]>, kind: string): MetricItem<T>[] => (metrics[kind] ?? []) as MetricItem<T>[];

export function ashSamples(metrics: Record<string, unknown[]>): AshSample[] {
  return items<AshSample>(metrics, 'ash').map((m) => m.data);
}

export function phasesOf(metrics: Record<string, unknown[]>): Phase[] {
  return items<Phase>(metrics, 'phase').map((m) => m.data);
}

export function samplerStatuses(metrics: Record<string, unknown[]>): SamplerStatus[] {
  return items<SamplerStatus>(metrics, 'sampler').map((m) => m.data);
}

/** CPU samples per agent label, in time order. */
export function cpuBySource(metrics: Record<string, unknown[]>): Record<string, CpuSample[]> {
  const out: Record<string, CpuSample[]> = {};
  for (const m of items<CpuSample>(metrics, 'cpu')) (out[m.source ?? 'agent'] ??= []).push(m.data);
  return out;
}

/**
 * The latest status of each sampler ('ash', 'cpu', 'cpu:<label>'): a later
 * entry replaces an earlier one, so a sampler that recovered shows as working.
 */
export function latestStatuses(all: readonly SamplerStatus[]): SamplerStatus[] {
  const by = new Map<string, SamplerStatus>();
  for (const s of [...all].sort((a, b) => a.ts - b.ts)) by.set(s.sampler, s);
  return [...by.values()];
}

/** System info recorded per agent label; other entries of the job's system table are left out. */
export function agentSystems(system: Record<string, Record<string, unknown>> | undefined): Record<string, SystemInfo> {
  const out: Record<string, SystemInfo> = {};
  for (const [label, v] of Object.entries(system ?? {})) {
    if (typeof v['hostname'] === 'string' && typeof v['cpuCount'] === 'number') out[label] = v as unknown as SystemInfo;
  }
  return out;
}
