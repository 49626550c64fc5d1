/**
 * Per-statement statistics of a run's measured window (issue 34 item 5):
 * the engine's cumulative per-statement counters (PostgreSQL
 * pg_stat_statements, MySQL/MariaDB performance_schema digests) read before
 * and after the window, their difference kept for the top N statements by
 * time, and the statements whose mean time moved between two runs. Pure.
 */
import type { StatementChange, StatementStat } from '@sledge/protocol';

/** One statement's cumulative counters at one instant. */
export interface StatementCounter {
  id: string;
  text: string;
  calls: number;
  totalMs: number;
}

/** Statement texts that may carry a secret (CREATE USER ... PASSWORD '...' is kept verbatim by some engines): never stored. */
const SECRET_TEXT = /password|identified\s+by|secret/i;

const num = (v: unknown): number => {
  const n = typeof v === 'bigint' ? Number(v) : typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) ? n : 0;
};

/** Rows of (id, text, calls, total ms) as the engine returned them; rows without an id are skipped, one id's rows are summed. */
export function countersFromRows(rows: readonly (readonly unknown[])[]): StatementCounter[] {
  const m = new Map<string, StatementCounter>();
  for (const r of rows) {
    const id = r[0] === null || r[0] === undefined ? '' : String(r[0]);
    if (!id) continue;
    const text = typeof r[1] === 'string' ? r[1] : r[1] === null || r[1] === undefined ? '' : String(r[1]);
    const prev = m.get(id);
    if (prev) {
      prev.calls += num(r[2]);
      prev.totalMs += num(r[3]);
    } else m.set(id, { id, text, calls: num(r[2]), totalMs: num(r[3]) });
  }
  return [...m.values()];
}

/**
 * The window's statistics: after − before per statement (a statement new
 * since `before` counts from zero; a counter that went down was reset, and
 * its `after` reading is the window's), the top `top` by time, statements
 * that did not run in the window and secret-bearing texts left out.
 */
export function statementDelta(before: readonly StatementCounter[], after: readonly StatementCounter[], top: number): StatementStat[] {
  const b = new Map(before.map((c) => [c.id, c]));
  const out: StatementStat[] = [];
  for (const a of after) {
    const p = b.get(a.id);
    const reset = p !== undefined && (a.calls < p.calls || a.totalMs < p.totalMs);
    const calls = p && !reset ? a.calls - p.calls : a.calls;
    const totalMs = p && !reset ? a.totalMs - p.totalMs : a.totalMs;
    if (calls <= 0 || SECRET_TEXT.test(a.text)) continue;
    out.push({ id: a.id, text: a.text.replace(/\s+/g, ' ').trim(), calls, totalMs: Math.max(0, totalMs), meanMs: Math.max(0, totalMs) / calls });
  }
  out.sort((x, y) => y.totalMs - x.totalMs || (x.id < y.id ? -1 : 1));
  return out.slice(0, Math.max(1, Math.trunc(top)));
}

/**
 * Statements whose mean time per call moved between two runs by more than
 * `minChange` (relative), or that ran in only one of them; biggest moves first
 * (by the time the move costs: |Δmean| × calls in B, else in A).
 */
export function diffStatements(a: readonly StatementStat[], b: readonly StatementStat[], minChange = 0.1): StatementChange[] {
  const ma = new Map(a.map((s) => [s.id, s]));
  const mb = new Map(b.map((s) => [s.id, s]));
  const out: (StatementChange & { weight: number })[] = [];
  for (const id of new Set([...ma.keys(), ...mb.keys()])) {
    const sa = ma.get(id);
    const sb = mb.get(id);
    const meanA = sa ? sa.meanMs : null;
    const meanB = sb ? sb.meanMs : null;
    const change = meanA !== null && meanB !== null && meanA > 0 ? (meanB - meanA) / meanA : null;
    if (change !== null && Math.abs(change) < minChange) continue;
    if (change === null && meanA !== null && meanB !== null) continue; // both ran in no measurable time
    const weight = meanA !== null && meanB !== null ? Math.abs(meanB - meanA) * sb!.calls : (sa ?? sb)!.totalMs;
    out.push({ id, text: (sb ?? sa)!.text, callsA: sa?.calls ?? 0, callsB: sb?.calls ?? 0, meanMsA: meanA, meanMsB: meanB, change, weight });
  }
  out.sort((x, y) => y.weight - x.weight || (x.id < y.id ? -1 : 1));
  return out.map(({ weight: _w, ...c }) => c);
}
