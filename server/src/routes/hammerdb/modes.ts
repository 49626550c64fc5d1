import { failure, success, type Outcome, type Pairs } from './reply.js';

/**
 * switchmode: HammerDB's primary/replica modes drive VUs on several machines
 * over Tcl comm. Sledge runs every VU on this server: local mode is the one
 * mode; primary and replica are refused (multi-machine runs are a separate
 * feature; steprun runs HammerDB's replica schedule as steps of one job).
 */
export function switchmode(_ctx: unknown, pairs: Pairs): Outcome {
  const named = new Map(pairs);
  const mode = (named.get('mode') ?? pairs[0]?.[1] ?? '').trim().toLowerCase();
  if (!['local', 'primary', 'replica'].includes(mode)) return failure('Usage: switchmode {"mode":"local|primary|replica","id":"<id>","host":"<host>"}');
  if (mode === 'local') return success('Mode is Local: Sledge runs every Virtual User on this server');
  return failure(`Primary, replica modes not supported in Sledge: it runs every Virtual User on this server (switchmode local); for HammerDB's replica schedule use steprun`);
}
