import { failure, success, type Outcome, type Pairs } from './reply.js';

/**
 * switchmode: HammerDB's primary/replica modes drive VUs on several machines
 * over Tcl comm. Sledge's web-service session is local: primary and replica
 * are refused, pointing at Sledge's own scale-out (sledge replica over NATS,
 * a run job's placement); steprun runs HammerDB's replica schedule as steps
 * of one job on this server.
 */
export function switchmode(_ctx: unknown, pairs: Pairs): Outcome {
  const named = new Map(pairs);
  const mode = (named.get('mode') ?? pairs[0]?.[1] ?? '').trim().toLowerCase();
  if (!['local', 'primary', 'replica'].includes(mode)) return failure('Usage: switchmode {"mode":"local|primary|replica","id":"<id>","host":"<host>"}');
  if (mode === 'local') return success('Mode is Local: Sledge runs every Virtual User on this server');
  return failure(`Primary, replica modes are not HammerDB's Tcl comm in Sledge: start replicas with sledge replica --nats URL and give the run a placement on them (REST placement, CLI --replicas); for HammerDB's replica schedule on this server use steprun`);
}
