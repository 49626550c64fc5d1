import type { LoadStep } from '@sledge/protocol';
import { dictToSledge, KeyValueError } from './keymap.js';
import { BodyError, failure, type Outcome, type Pairs } from './reply.js';
import { vurun, type RunCtx } from './lifecycle.js';

/** One HammerDB replica of steps.xml (hammerdb.md §11.2), in minutes. */
export interface Replica {
  startAfterPrev: number;
  duration: number;
  virtualUsers: number;
}

const FIELDS = { start_after_prev: 'startAfterPrev', duration: 'duration', virtual_users: 'virtualUsers' } as const;

/**
 * steprun's body: HammerDB reads config/steps.xml (replicaN: start_after_prev,
 * duration, virtual_users); here the same values come as flat keys
 * "replicaN.start_after_prev", "replicaN.duration", "replicaN.virtual_users".
 */
export function parseReplicas(pairs: Pairs): Replica[] {
  const by = new Map<number, Partial<Replica>>();
  for (const [k, v] of pairs) {
    const m = /^replica(\d+)\.(start_after_prev|duration|virtual_users)$/.exec(k);
    if (!m) throw new BodyError(`steprun: unknown key "${k}": use replicaN.start_after_prev, replicaN.duration, replicaN.virtual_users (minutes, minutes, VUs)`);
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new BodyError(`steprun: ${k} must be a number >= 0 (got "${v}")`);
    const r = by.get(Number(m[1])) ?? {};
    r[FIELDS[m[2] as keyof typeof FIELDS]] = n;
    by.set(Number(m[1]), r);
  }
  if (!by.size) throw new BodyError('steprun needs the steps: {"replica1.start_after_prev":"1","replica1.duration":"2","replica1.virtual_users":"4", ...} (HammerDB steps.xml as flat keys)');
  return [...by.entries()]
    .sort(([a], [b]) => a - b)
    .map(([n, r]) => {
      for (const f of Object.keys(FIELDS) as (keyof typeof FIELDS)[]) if (r[FIELDS[f]] === undefined) throw new BodyError(`steprun: replica${n}.${f} is missing`);
      return r as Replica;
    });
}

/**
 * HammerDB's steprun as one local schedule. HammerDB runs the primary's VUs
 * for rampup + duration and spawns each replica as its own process and job:
 * replica 1 starts after the primary's rampup, each later one
 * start_after_prev minutes after the previous, for its duration. Here the
 * replicas' VUs add to the primary's in one job: the run is cut at every
 * replica start and end, and each piece becomes a step with the VUs running
 * then (adjacent pieces with the same count are one step).
 */
export function replicasToSteps(primaryVus: number, rampupMin: number, durationMin: number, replicas: readonly Replica[]): LoadStep[] {
  const total = rampupMin + durationMin;
  const windows: [number, number, number][] = [];
  let start = rampupMin;
  replicas.forEach((r, i) => {
    if (i > 0) start += r.startAfterPrev;
    windows.push([start, start + r.duration, r.virtualUsers]);
  });
  // The schedule's end is the later of the run's end and the last replica's (the server refuses the latter when it is longer).
  const end = Math.max(total, ...windows.map((w) => w[1]));
  const cuts = [...new Set([0, end, ...windows.flatMap(([a, b]) => [a, b])])].filter((x) => x >= 0 && x <= end).sort((a, b) => a - b);
  const pieces: { from: number; to: number; vus: number }[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i]!;
    const to = cuts[i + 1]!;
    if (to - from < 1e-9) continue;
    const vus = primaryVus + windows.filter(([a, b]) => a <= from && from < b).reduce((s, w) => s + w[2], 0);
    const last = pieces[pieces.length - 1];
    if (last && last.vus === vus) last.to = to;
    else pieces.push({ from, to, vus });
  }
  const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
  return pieces.map((p, i) => ({ startAfterMin: i === 0 ? 0 : r6(p.from - pieces[i - 1]!.from), durationMin: r6(p.to - p.from), vus: p.vus }));
}

/** POST /steprun: vurun with the replicas' schedule as tprocc.steps. */
export async function steprun(ctx: RunCtx, pairs: Pairs): Promise<Outcome> {
  if (ctx.s.bm === 'TPC-H') return failure('Error: Step Workload does not support TPC-H');
  const replicas = parseReplicas(pairs);
  let tprocc: Record<string, unknown>;
  try {
    tprocc = dictToSledge(ctx.s.prefix, ctx.s.db.engine, ctx.s.dict).tprocc;
  } catch (e) {
    if (e instanceof KeyValueError) return failure(e.message);
    throw e;
  }
  const steps = replicasToSteps(Number(ctx.s.vu.vu), Number(tprocc['rampup'] ?? 2), Number(tprocc['duration'] ?? 5), replicas);
  return vurun(ctx, { steps });
}
