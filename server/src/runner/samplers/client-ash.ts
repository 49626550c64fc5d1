import type { AshSample } from '@sledge/protocol';
import { ASH_EXEC_US, ASH_WAIT_US } from '../../shared/layout.js';

/** Below this weight a VU's class is left out of a sampling instant. */
const MIN_WEIGHT = 0.001;

/**
 * Client-side active session history, for engines whose activity only the
 * VUs can see (SQLite): each VU adds the time of every finished transaction
 * to its shared counters (executing, and of that, waiting for the write lock;
 * server/src/worker/vu-session.ts). This turns those counters into one sample
 * per VU and class for each second, on a grid of whole seconds from the time
 * the VUs started.
 *
 * The counters are read whenever the sampler's timer fires, which a busy
 * event loop delays. Each reading covers the time since the previous one,
 * however long: a VU's activity in it is at most that time (a VU is one
 * session), and it is spread over the seconds the reading covers. So no
 * second is left without its sample, no sample counts a second twice, and
 * a VU never weighs more than 1 in a second.
 *
 * Time is known only when a transaction ends: one that began before a reading
 * is counted entirely in the next. What a reading cannot hold (more time than
 * it covers) is carried to the next one, so totals are kept and a VU's time
 * is shifted later by at most its longest transaction.
 */
export class ClientAsh {
  private readonly prev: Int32Array;
  /** Per VU [cpu, lock] ms finished but not yet placed on the time line. */
  private readonly pending: Float64Array;
  /** Per VU [cpu, lock] ms placed in the open second. */
  private readonly open: Float64Array;
  /** Time accounted up to (ms). */
  private at: number;
  /** End of the open second (ms): the instant its sample carries. */
  private slotEnd: number;

  constructor(
    private readonly ash: Int32Array,
    private readonly vus: number,
    start: number,
    private readonly slotMs = 1000,
  ) {
    this.prev = new Int32Array(vus * 2);
    this.pending = new Float64Array(vus * 2);
    this.open = new Float64Array(vus * 2);
    this.at = start;
    this.slotEnd = start + slotMs;
    for (let i = 0; i < vus * 2; i++) this.prev[i] = Atomics.load(ash, i);
  }

  /** Read the counters at `now` (ms): samples of every second that ended by then. */
  take(now: number): AshSample[] {
    this.read();
    const span = now - this.at;
    if (span <= 0) return [];
    // Each VU's share of [at, now) per class: what it finished, at most all of the span.
    const rate = new Float64Array(this.vus * 2);
    for (let v = 0; v < this.vus; v++) {
      const cpu = this.pending[v * 2]!;
      const lock = this.pending[v * 2 + 1]!;
      const total = cpu + lock;
      if (total <= 0) continue;
      const placed = Math.min(total, span);
      rate[v * 2] = (cpu * placed) / total / span;
      rate[v * 2 + 1] = (lock * placed) / total / span;
      this.pending[v * 2] = cpu - rate[v * 2]! * span;
      this.pending[v * 2 + 1] = lock - rate[v * 2 + 1]! * span;
    }
    const out: AshSample[] = [];
    while (this.at < now) {
      const until = Math.min(this.slotEnd, now);
      const d = until - this.at;
      for (let i = 0; i < this.vus * 2; i++) this.open[i] = this.open[i]! + rate[i]! * d;
      this.at = until;
      if (until === this.slotEnd) out.push(...this.closeSlot());
    }
    return out;
  }

  /** The last reading (the run ended): the open second's sample too, its weight the part of it that was active. */
  flush(now: number): AshSample[] {
    const out = this.take(now);
    if (this.at > this.slotEnd - this.slotMs) out.push(...this.closeSlot());
    return out;
  }

  /** Add the time finished since the last read to each VU's pending time. */
  private read(): void {
    for (let v = 0; v < this.vus; v++) {
      const exec = Atomics.load(this.ash, v * 2 + ASH_EXEC_US);
      const wait = Atomics.load(this.ash, v * 2 + ASH_WAIT_US);
      // Int32 microseconds wrap after 35 minutes: differences stay right.
      const dExec = (exec - this.prev[v * 2 + ASH_EXEC_US]!) | 0;
      const dWait = (wait - this.prev[v * 2 + ASH_WAIT_US]!) | 0;
      this.prev[v * 2 + ASH_EXEC_US] = exec;
      this.prev[v * 2 + ASH_WAIT_US] = wait;
      const lock = Math.max(0, dWait) / 1000;
      const cpu = Math.max(0, dExec - Math.max(0, dWait)) / 1000;
      this.pending[v * 2] = this.pending[v * 2]! + cpu;
      this.pending[v * 2 + 1] = this.pending[v * 2 + 1]! + lock;
    }
  }

  private closeSlot(): AshSample[] {
    const ts = this.slotEnd;
    const out: AshSample[] = [];
    for (let v = 0; v < this.vus; v++) {
      const vu = v + 2;
      const base = { ts, session: `vu-${vu}`, vu, program: `sledge-vu-${vu}` };
      const cpu = Math.min(1, this.open[v * 2]! / this.slotMs);
      const lock = Math.min(1 - cpu, this.open[v * 2 + 1]! / this.slotMs);
      if (cpu > MIN_WEIGHT) out.push({ ...base, waitClass: 'CPU', event: 'CPU', weight: cpu });
      if (lock > MIN_WEIGHT) out.push({ ...base, waitClass: 'Lock', event: 'write lock (SQLITE_BUSY)', engineClass: 'busy', weight: lock });
    }
    this.open.fill(0);
    this.slotEnd += this.slotMs;
    return out;
  }
}
