import { SledgeError, type Placement, type ReplicaInfo } from '@sledge/protocol';

/** A replica's share of a run: the run's global VU indexes (0-based) it runs. */
export interface ReplicaShare {
  name: string;
  indexes: number[];
}

/**
 * Which replica runs which VUs. Replicas must be ready (joined, not lost,
 * not busy with another job) and have the engine's driver. VUs go out in
 * order: replica 1 takes the first block, replica 2 the next ... (an even
 * spread gives the first replicas by name one more when they do not divide).
 * Every refusal says what to change.
 */
export function planPlacement(p: Placement, vus: number, engine: string, replicas: ReplicaInfo[]): ReplicaShare[] {
  const known = new Map(replicas.map((r) => [r.name, r]));
  const names = p.replicas ?? (p.vus ? Object.keys(p.vus) : replicas.filter((r) => r.state === 'ready').map((r) => r.name));
  if (names.length === 0) {
    const seen = replicas.length ? ` (${replicas.map((r) => `${r.name}: ${r.state}`).join(', ')})` : '';
    throw new SledgeError('SLEDGE_E_CONFLICT', `placement.on is "replicas" but no replica is ready${seen}: start one with \`sledge replica --nats <url>\`, or set placement.on to "local"`, { field: 'placement' });
  }
  for (const n of names) {
    const r = known.get(n);
    if (!r) throw new SledgeError('SLEDGE_E_VALIDATION', `replica ${n} has not joined: the replicas are ${[...known.keys()].join(', ') || 'none'}`, { field: 'placement.replicas' });
    if (r.state !== 'ready') throw new SledgeError('SLEDGE_E_CONFLICT', `replica ${n} is ${r.state}${r.jobId ? ` (job ${r.jobId})` : ''}: wait for it, or name other replicas`, { field: 'placement.replicas' });
    if (!r.drivers.includes(engine)) throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `replica ${n} has no ${engine} driver (it has ${r.drivers.join(', ') || 'none'}): install the client library there, or name other replicas`, { field: 'placement.replicas' });
  }
  let counts: number[];
  if (p.vus) {
    counts = names.map((n) => p.vus![n] ?? 0);
    const sum = counts.reduce((a, b) => a + b, 0);
    if (sum !== vus) throw new SledgeError('SLEDGE_E_VALIDATION', `placement.vus adds up to ${sum} VUs but the run has ${vus}: make them equal`, { field: 'placement.vus' });
  } else {
    if (names.length > vus) throw new SledgeError('SLEDGE_E_VALIDATION', `the run has ${vus} VU(s) for ${names.length} replicas: name at most ${vus} replicas or raise the VUs`, { field: 'placement.replicas' });
    counts = names.map((_, i) => Math.floor(vus / names.length) + (i < vus % names.length ? 1 : 0));
  }
  let next = 0;
  return names
    .map((name, i) => ({ name, indexes: Array.from({ length: counts[i]! }, () => next++) }))
    .filter((s) => s.indexes.length > 0);
}
