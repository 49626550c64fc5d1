import type { VuStatus } from '@sledge/protocol';
import { KINDS, K_COMMIT, K_ERROR, K_ROLLBACK, VU_STATE_NAMES, counterIndex, sumCounters } from '../shared/layout.js';

/** The shared counters summed over all VUs: per kind, and commits + rollbacks per operation. */
export interface Totals {
  commits: number;
  rollbacks: number;
  errors: number;
  /** commits + rollbacks per operation (index as in Workload.operations). */
  perOp: number[];
  /** rollbacks per operation (index as in Workload.operations). */
  rollbacksPerOp: number[];
  /** errors per operation (index as in Workload.operations). */
  errorsPerOp: number[];
  /** commits + rollbacks of every operation. */
  ops: number;
}

/** Reads the job's shared counters (a workload with `ops` operations, `vus` VUs). */
export class CounterReader {
  constructor(
    private readonly counters: Int32Array,
    private readonly states: Int32Array,
    private readonly vus: number,
    private readonly ops: number,
  ) {}

  totals(): Totals {
    const s = sumCounters(this.counters, this.vus, this.ops);
    let commits = 0;
    let rollbacks = 0;
    let errors = 0;
    const perOp: number[] = [];
    const rollbacksPerOp: number[] = [];
    const errorsPerOp: number[] = [];
    for (let i = 0; i < this.ops; i++) {
      const cm = s[i * KINDS + K_COMMIT]!;
      const rb = s[i * KINDS + K_ROLLBACK]!;
      commits += cm;
      rollbacks += rb;
      errors += s[i * KINDS + K_ERROR]!;
      errorsPerOp.push(s[i * KINDS + K_ERROR]!);
      perOp.push(cm + rb);
      rollbacksPerOp.push(rb);
    }
    return { commits, rollbacks, errors, perOp, rollbacksPerOp, errorsPerOp, ops: commits + rollbacks };
  }

  /** Each VU's state and counts (the VU grid). */
  perVu(): VuStatus[] {
    const { counters, ops } = this;
    return Array.from({ length: this.vus }, (_, i) => {
      let c = 0;
      let r = 0;
      let e = 0;
      for (let t = 0; t < ops; t++) {
        c += Atomics.load(counters, counterIndex(ops, i, t, K_COMMIT));
        r += Atomics.load(counters, counterIndex(ops, i, t, K_ROLLBACK));
        e += Atomics.load(counters, counterIndex(ops, i, t, K_ERROR));
      }
      return { vu: i + 2, state: VU_STATE_NAMES[Atomics.load(this.states, i)] ?? 'idle', commits: c, rollbacks: r, errors: e };
    });
  }
}
