import { TPROCH } from '@sledge/protocol';
import type { WorkloadOp } from '../types.js';

/**
 * A fixed colour per query, spread around the colour wheel so neighbouring
 * queries differ (golden-angle steps); lighter in the dark theme. The refresh
 * functions are grey (RF1) and slate (RF2).
 */
function queryColor(q: number): { light: string; dark: string } {
  const hue = Math.round((q * 137.508) % 360);
  return { light: `hsl(${hue} 62% 42%)`, dark: `hsl(${hue} 70% 66%)` };
}

const REFRESH: Record<string, { light: string; dark: string }> = {
  rf1: { light: '#4b5563', dark: '#d1d5db' },
  rf2: { light: '#1e3a5f', dark: '#93c5fd' },
};

/** TPROC-H's operations as protocol lists them: Q1..Q22, then RF1 and RF2. */
export const TPROCH_OPS: readonly WorkloadOp[] = TPROCH.operations.map((id) => ({
  id,
  label: id.toUpperCase(),
  color: REFRESH[id] ?? queryColor(Number(id.slice(1))),
}));

/** An operation's colour in a theme ('q5', 'rf1'). */
export function opColor(id: string, mode: 'light' | 'dark'): string {
  const op = TPROCH_OPS.find((o) => o.id === id);
  return op ? op.color[mode] : mode === 'dark' ? '#d1d5db' : '#4b5563';
}
