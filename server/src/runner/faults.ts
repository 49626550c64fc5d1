import { ERROR_CLASSES, type Disruption, type ErrorClassName, type ErrorCounts } from '@sledge/protocol';
import { FV_BACKS, FV_DROPS, F_ERROR, F_RETRIED_COMMIT, F_RETRY, faultIndex, faultVuIndex } from '../shared/layout.js';

/** The faults block summed over the VUs. */
export interface FaultTotals {
  errors: ErrorCounts;
  retries: ErrorCounts;
  /** Commits and rollbacks that needed at least one retry. */
  retriedCommits: number;
  /** Sessions lost and reconnected so far. */
  drops: number;
  backs: number;
}

const zeroClasses = (): Record<ErrorClassName, number> => Object.fromEntries(ERROR_CLASSES.map((c) => [c, 0])) as Record<ErrorClassName, number>;

/** Reads the faults block (layout.ts) of a run with `vus` VUs and the workload's operations. */
export class FaultReader {
  constructor(
    private readonly faults: Int32Array,
    private readonly vus: number,
    private readonly opNames: readonly string[],
  ) {}

  totals(): FaultTotals {
    const ops = this.opNames.length;
    const count = (base: number): ErrorCounts => {
      const byClass = zeroClasses();
      const byOp: Record<string, Record<string, number>> = {};
      let total = 0;
      this.opNames.forEach((name, op) => {
        const row = zeroClasses();
        for (let v = 0; v < this.vus; v++) {
          ERROR_CLASSES.forEach((c, k) => {
            row[c] += Atomics.load(this.faults, faultIndex(ops, v, op, base + k));
          });
        }
        for (const c of ERROR_CLASSES) {
          byClass[c] += row[c];
          total += row[c];
        }
        byOp[name] = row;
      });
      return { total, byClass, byOp };
    };
    let retriedCommits = 0;
    let drops = 0;
    let backs = 0;
    for (let v = 0; v < this.vus; v++) {
      for (let op = 0; op < ops; op++) retriedCommits += Atomics.load(this.faults, faultIndex(ops, v, op, F_RETRIED_COMMIT));
      drops += Atomics.load(this.faults, faultVuIndex(this.vus, ops, v, FV_DROPS));
      backs += Atomics.load(this.faults, faultVuIndex(this.vus, ops, v, FV_BACKS));
    }
    return { errors: count(F_ERROR), retries: count(F_RETRY), retriedCommits, drops, backs };
  }
}

/**
 * The run's timeline of sessions lost and back: each tick compares the
 * drop and reconnect counts with the last tick's and records a disruption
 * per direction that moved (at most two per tick).
 */
export class DisruptionTimeline {
  readonly list: Disruption[] = [];
  private drops = 0;
  private backs = 0;

  /** The disruptions since the last tick (also kept in `list`). */
  tick(t: Pick<FaultTotals, 'drops' | 'backs'>, at: number): Disruption[] {
    const out: Disruption[] = [];
    if (t.drops > this.drops) out.push({ at, kind: 'drop', sessions: t.drops - this.drops });
    if (t.backs > this.backs) out.push({ at, kind: 'back', sessions: t.backs - this.backs });
    this.drops = t.drops;
    this.backs = t.backs;
    this.list.push(...out);
    return out;
  }
}

/** One line for the output and the result: what the run survived. */
export function survivedLine(t: FaultTotals, monitorReconnects: number): string {
  const classes = ERROR_CLASSES.filter((c) => t.errors.byClass[c]! > 0).map((c) => `${c} ${t.errors.byClass[c]}`);
  const parts = [`${t.errors.total} error(s)${classes.length ? ` (${classes.join(', ')})` : ''}`, `${t.retries.total} retr${t.retries.total === 1 ? 'y' : 'ies'}`];
  if (t.drops > 0) parts.push(`${t.drops} session(s) lost, ${t.backs} reconnected`);
  if (monitorReconnects > 0) parts.push(`the monitor reconnected ${monitorReconnects} time(s)`);
  return `Run survived: ${parts.join('; ')}`;
}
