import type { Job, Placement, ReplicaInfo, ReplicaRunFields } from '@sledge/protocol';

/**
 * Scale-out in the UI, pure: the Run form's "Where VUs run" draft and the
 * job body's `placement` it makes, the even spread the server applies, and
 * the per-replica figures of a run's result. No React.
 */

/** Where the Run form puts the VUs: this server, every ready replica, or the chosen ones. */
export type PlacementMode = 'local' | 'all' | 'chosen';

export interface PlacementDraft {
  mode: PlacementMode;
  /** Chosen replicas (mode 'chosen'), in the order they were ticked. */
  chosen: string[];
  /** VUs per chosen replica as typed ('' = not given). */
  vus: Record<string, string>;
}

export const LOCAL_PLACEMENT: PlacementDraft = { mode: 'local', chosen: [], vus: {} };

/** The job body's `placement` for a draft; undefined for this server (the default, so the body stays as before scale-out). */
export function placementBody(d: PlacementDraft): Placement | undefined {
  if (d.mode === 'local') return undefined;
  if (d.mode === 'all') return { on: 'replicas' };
  const replicas = [...d.chosen];
  const vus: Record<string, number> = {};
  for (const n of replicas) {
    const t = (d.vus[n] ?? '').trim();
    if (t !== '') vus[n] = Number(t);
  }
  return Object.keys(vus).length ? { on: 'replicas', replicas, vus } : { on: 'replicas', replicas };
}

/** What the form itself can tell before sending (the server checks the rest: readiness, drivers, the VU sum): the field and the message, or undefined. */
export function placementProblem(d: PlacementDraft): { field: string; message: string } | undefined {
  if (d.mode !== 'chosen') return undefined;
  if (d.chosen.length === 0) return { field: 'placement.replicas', message: 'tick at least one replica, or pick "All ready replicas"' };
  return undefined;
}

/** A VUs input keeps digits only (a VU count is a whole number). */
export const vusInput = (typed: string): string => typed.replace(/\D/g, '');

/** A stored job configuration's `placement` (job.config is untyped in the UI), when it has a valid one. */
export function placementOf(config: unknown): Placement | undefined {
  const p = (config as { placement?: unknown } | null | undefined)?.placement;
  if (typeof p !== 'object' || p === null) return undefined;
  const on = (p as { on?: unknown }).on;
  return on === 'local' || on === 'replicas' ? (p as Placement) : undefined;
}

/** A stored job's placement as a draft ("Edit and run" of a job). */
export function draftOfPlacement(p: Placement | undefined): PlacementDraft {
  if (!p || p.on === 'local') return LOCAL_PLACEMENT;
  const named = p.replicas ?? (p.vus ? Object.keys(p.vus) : undefined);
  if (!named) return { mode: 'all', chosen: [], vus: {} };
  const vus: Record<string, string> = {};
  for (const [n, v] of Object.entries(p.vus ?? {})) vus[n] = String(v);
  return { mode: 'chosen', chosen: named, vus };
}

/** A draft remembered in localStorage, checked (undefined when it is not one). */
export function placementDraftOf(v: unknown): PlacementDraft | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const d = v as Record<string, unknown>;
  if (d['mode'] !== 'local' && d['mode'] !== 'all' && d['mode'] !== 'chosen') return undefined;
  const chosen = Array.isArray(d['chosen']) ? d['chosen'].filter((n): n is string => typeof n === 'string') : [];
  const vus: Record<string, string> = {};
  if (typeof d['vus'] === 'object' && d['vus'] !== null) for (const [n, x] of Object.entries(d['vus'])) if (typeof x === 'string') vus[n] = vusInput(x);
  return { mode: d['mode'], chosen, vus };
}

/** The sum of the VUs typed per chosen replica, or undefined when none is typed (an even spread). Blanks count 0, as the server counts them. */
export function typedVusSum(d: PlacementDraft): number | undefined {
  const typed = d.chosen.map((n) => (d.vus[n] ?? '').trim()).filter((t) => t !== '');
  if (!typed.length) return undefined;
  return typed.reduce((a, t) => a + Number(t), 0);
}

/** The server's even spread of `vus` over `names` (in that order): the first ones take one more when they do not divide. */
export function evenSpread(vus: number, names: readonly string[]): { name: string; vus: number }[] {
  if (!names.length || !Number.isInteger(vus) || vus < 0) return [];
  return names.map((name, i) => ({ name, vus: Math.floor(vus / names.length) + (i < vus % names.length ? 1 : 0) }));
}

/** Replicas a run on `engine` can use now: ready, with that engine's driver. */
export function usableReplicas(list: readonly ReplicaInfo[], engine: string): ReplicaInfo[] {
  return list.filter((r) => r.state === 'ready' && r.drivers.includes(engine));
}

/** Why a replica cannot take a run on `engine` now, or undefined when it can. */
export function unusableReason(r: ReplicaInfo, engine: string): string | undefined {
  if (r.state === 'lost') return 'lost';
  if (r.state === 'left') return 'left';
  if (r.state === 'busy') return r.jobId ? `busy with job ${r.jobId}` : 'busy';
  if (!r.drivers.includes(engine)) return `no ${engine} driver`;
  return undefined;
}

/** HammerDB VU positions as short text: 2,3,4,7 → "2–4, 7". */
export function vuRanges(positions: readonly number[]): string {
  const s = [...positions].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    out.push(j === i ? String(s[i]) : j === i + 1 ? `${s[i]}, ${s[j]}` : `${s[i]}–${s[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** Seconds since a heartbeat as text: "0.4 s", "12 s", "3 min 5 s". Clock skew between browser and server never shows as a negative age. */
export function ageText(ms: number): string {
  const a = Math.max(0, ms);
  if (a < 10_000) return `${(a / 1000).toFixed(1)} s`;
  const s = Math.round(a / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const isReplicaRun = (x: unknown): x is ReplicaRunFields => {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  return typeof r['name'] === 'string' && Array.isArray(r['vus']) && typeof r['transactions'] === 'number' && typeof r['clientTpm'] === 'number' && typeof r['finishedVus'] === 'number';
};

/** A run placed on replicas: each replica's VUs, transactions, client TPM, finished VUs and when it was lost (result.replicas); undefined for other jobs. */
export function replicaRunsOf(job: Pick<Job, 'result'>): { replicas: ReplicaRunFields[]; vusFinished: number | undefined } | undefined {
  const r = job.result as { replicas?: unknown; vusFinished?: unknown } | null | undefined;
  if (!r || !Array.isArray(r.replicas) || r.replicas.length === 0 || !r.replicas.every(isReplicaRun)) return undefined;
  return { replicas: r.replicas, vusFinished: typeof r.vusFinished === 'number' ? r.vusFinished : undefined };
}

/** A job's placement in a few words for summaries: "on replicas r1, r2" / "on all ready replicas"; undefined on this server. */
export function placementText(p: Placement | undefined): string | undefined {
  if (!p || p.on !== 'replicas') return undefined;
  const named = p.replicas ?? (p.vus ? Object.keys(p.vus) : undefined);
  if (!named) return 'on all ready replicas';
  return `on replicas ${named.map((n) => (p.vus?.[n] !== undefined ? `${n} (${p.vus[n]})` : n)).join(', ')}`;
}
