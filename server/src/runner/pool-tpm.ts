import type { ConnectPool } from '@sledge/protocol';
import { K_COMMIT, K_ROLLBACK, POOL_OP0, POOL_SESSIONS, counterIndex, poolIndex } from '../shared/layout.js';

/** A connect pool run's client-side figures (hammerdb.md §6.8): result fields and the monitor's lines. */
export interface PoolReport {
  clientTpm: Record<string, number>;
  targets: { name: string; sessions: number; transactions: number; clientTpm: Record<string, number> }[];
  lines: string[];
}

/** HammerDB's client-side TPM: the run's count ÷ (rampup + duration minutes), an integer as Tcl's division gives. */
const perMin = (count: number, minutes: number) => (minutes > 0 ? Math.floor(count / minutes) : 0);

const tpmLine = (ops: readonly string[], tpm: Record<string, number>) => ops.map((o) => `${o} ${tpm[o] ?? 0}`).join(' ');

/**
 * Reads the shared counters of a pooled run: per operation over all VUs
 * (HammerDB's `CLIENT SIDE TPM : neworder … payment …` line and each VU's
 * `VU<n> processed …` line), and per pool connection (sessions opened,
 * operations run, client TPM), from the pool block the VUs count into.
 */
export function poolReport(
  pool: ConnectPool,
  ops: readonly string[],
  counters: Int32Array,
  poolCounts: Int32Array,
  vus: number,
  minutes: number,
): PoolReport {
  const nOps = ops.length;
  const lines: string[] = [];
  const total = ops.map(() => 0);
  for (let v = 0; v < vus; v++) {
    const mine = ops.map((_, t) => Atomics.load(counters, counterIndex(nOps, v, t, K_COMMIT)) + Atomics.load(counters, counterIndex(nOps, v, t, K_ROLLBACK)));
    mine.forEach((n, t) => (total[t]! += n));
    lines.push(`VU${v + 2} processed ${ops.map((o, t) => `${o} ${mine[t]}`).join(' ')} transactions`);
  }
  const clientTpm = Object.fromEntries(ops.map((o, t) => [o, perMin(total[t]!, minutes)]));
  lines.push(`CLIENT SIDE TPM : ${tpmLine(ops, clientTpm)}`);
  const targets = pool.connections.map((c, i) => {
    const counts = ops.map((_, t) => Atomics.load(poolCounts, poolIndex(nOps, i, POOL_OP0 + t)));
    const tpm = Object.fromEntries(ops.map((o, t) => [o, perMin(counts[t]!, minutes)]));
    const sessions = Atomics.load(poolCounts, poolIndex(nOps, i, POOL_SESSIONS));
    const transactions = counts.reduce((a, b) => a + b, 0);
    lines.push(`CLIENT SIDE TPM ${c.name} (${sessions} sessions, ${transactions} transactions) : ${tpmLine(ops, tpm)}`);
    return { name: c.name, sessions, transactions, clientTpm: tpm };
  });
  return { clientTpm, targets, lines };
}
