import type { BuildProgress } from '@sledge/protocol';

/** When stderr is not a terminal, a progress line each time the share loaded passes another this many percent. */
const STEP_PCT = 10;

/**
 * Build progress for stderr. On a terminal: one line rewritten in place
 * (`\r`) at every progress frame. Anywhere else (a pipe, a log file, CI):
 * whole lines only, one when the phase changes and one each time the share
 * loaded passes another 10%, so a log holds a few lines per phase and no
 * carriage return. Returns the text to write, or null for nothing.
 */
export function buildProgressLine(tty: boolean): (p: BuildProgress) => string | null {
  let phase: string | undefined;
  let step = -1;
  return (p) => {
    const rows = p.workers.reduce((s, w) => s + Object.values(w.rows).reduce((a, b) => a + b, 0), 0);
    const expected = Object.values(p.expected).reduce((a, b) => a + b, 0);
    const pct = (rows / Math.max(1, expected)) * 100;
    const text = `[${p.phase}] ${rows} / ~${expected} rows (${pct.toFixed(0)}%)`;
    if (tty) return `\r${text}   ${p.phase === 'done' ? '\n' : ''}`;
    const s = expected > 0 ? Math.floor(pct / STEP_PCT) : 0;
    if (p.phase === phase && s <= step) return null;
    phase = p.phase;
    step = s;
    return `${text}\n`;
  };
}
