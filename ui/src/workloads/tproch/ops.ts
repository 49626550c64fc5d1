import { OTHER_OP_COLOR, TPROCH, opColor } from '@sledge/protocol';
import type { WorkloadOp } from '../types.js';

/**
 * TPROC-H's operations as protocol lists them: Q1..Q22, then RF1 and RF2, in
 * the colours protocol gives them (a fixed colour per query around the colour
 * wheel; the refresh functions grey and slate; the HTML report draws with the same).
 */
export const TPROCH_OPS: readonly WorkloadOp[] = TPROCH.operations.map((id) => ({
  id,
  label: id.toUpperCase(),
  color: opColor(TPROCH.id, id),
}));

/** An operation's colour in a theme ('q5', 'rf1'). */
export function opColorIn(id: string, mode: 'light' | 'dark'): string {
  return (TPROCH_OPS.find((o) => o.id === id)?.color ?? OTHER_OP_COLOR)[mode];
}
