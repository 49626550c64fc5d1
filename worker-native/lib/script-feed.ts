/**
 * The script loop's JavaScript side (src/pgvu/script_addon.h): each VU's
 * feed, a ring of bytes in a SharedArrayBuffer that the worker thread fills
 * with transactions evaluated ahead (core ScriptClient.runAhead) and the
 * native thread that runs the VU takes, in the layout of src/pgvu/script_feed.h; and a
 * started run's handle (latency rings drained by script number, log lines,
 * results, dispose).
 */
import type { ScriptFeedSink, ScriptFeedWriter, ScriptNativeHandle, ScriptNativeResult, ScriptNativeStartOptions } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { RING_CAPACITY } from './native-vu.js';

/** Bytes of each VU's feed: 256 KiB, ~1,400 tpcb-like transactions, seconds of work at the rates a VU reaches. */
export const FEED_CAPACITY = 256 * 1024;
const FEED_STRIDE = 32;
const FEED_TAIL = 16;
const FEED_WRAP = 0xffffffff;
const STEP_CONTROL = { begin: 0xfff0, commit: 0xfff1, rollback: 0xfff2 } as const;
const MAX_PARAMS = 255;
const RING_STRIDE = 32;
const RING_TAIL = 16;
const REC_MEASURING = 0x100;

/** What the addon exports for scripts (script_addon.h). */
export interface ScriptBinding {
  startScript(opts: object): number;
  pollScript(id: number): { live: number; logs: (number | string)[] };
  scriptResults(id: number): ScriptNativeResult[];
  disposeScript(id: number): void;
}

const encoder = new TextEncoder();

/** One record being encoded (script_feed.h layout), then copied into the ring. */
class RecordBuilder implements ScriptFeedSink {
  buf = new Uint8Array(4096);
  view = new DataView(this.buf.buffer);
  len = 0;
  steps = 0;

  start(op: number): void {
    this.len = 12;
    this.steps = 0;
    this.view.setUint16(4, op, true);
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.len));
    this.buf = b;
    this.view = new DataView(b.buffer);
  }

  private head(code: number, n: number): void {
    this.room(4);
    this.view.setUint16(this.len, code, true);
    this.view.setUint16(this.len + 2, n, true);
    this.len += 4;
    this.steps++;
  }

  /** Text, a NUL, zeros to the next multiple of 4, after its i32 length (or -1 for NULL). */
  private text(s: string | null): void {
    if (s === null) {
      this.room(4);
      this.view.setInt32(this.len, -1, true);
      this.len += 4;
      return;
    }
    this.room(4 + s.length * 3 + 4);
    const at = this.len + 4;
    let n = 0;
    let ascii = true;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80 || c === 0) {
        ascii = false;
        break;
      }
      this.buf[at + i] = c;
    }
    if (ascii) n = s.length;
    else {
      if (s.includes('\0')) throw new SledgeError('SLEDGE_E_VALIDATION', 'a script parameter contains a NUL character, which PostgreSQL text parameters cannot carry');
      n = encoder.encodeInto(s, this.buf.subarray(at, at + s.length * 3)).written;
    }
    this.view.setInt32(this.len, n, true);
    const end = at + n;
    const padded = (end + 1 + 3) & ~3;
    this.buf.fill(0, end, padded);
    this.len = padded;
  }

  sql(index: number, params: readonly (string | null)[]): void {
    if (params.length > MAX_PARAMS) throw new SledgeError('SLEDGE_E_VALIDATION', `a script statement has ${params.length} parameters; the native loop takes up to ${MAX_PARAMS} (set vuLoop to typescript)`);
    this.head(index, params.length);
    for (const p of params) this.text(p);
  }

  control(kind: 'begin' | 'commit' | 'rollback'): void {
    this.head(STEP_CONTROL[kind], 0);
  }

  finish(error: string | undefined): void {
    const errAt = this.len;
    let errLen = 0;
    if (error !== undefined) {
      this.room(error.length * 3 + 4);
      errLen = encoder.encodeInto(error, this.buf.subarray(errAt, errAt + error.length * 3)).written;
    }
    const end = (errAt + errLen + 3) & ~3;
    this.room(end - errAt);
    this.buf.fill(0, errAt + errLen, end);
    this.len = end;
    this.view.setUint32(0, this.len, true);
    this.view.setUint16(6, this.steps, true);
    this.view.setUint32(8, errLen, true);
  }
}

/** One VU slot's feed over the run's index and data arrays. */
export class FeedWriter implements ScriptFeedWriter {
  private readonly rec = new RecordBuilder();
  private held = false;
  private readonly bytes: Uint8Array;
  private readonly view: DataView;

  constructor(
    private readonly index: Int32Array,
    data: Uint8Array,
    private readonly slot: number,
    private readonly capacity: number,
  ) {
    this.bytes = data.subarray(slot * capacity, (slot + 1) * capacity);
    this.view = new DataView(data.buffer, data.byteOffset + slot * capacity, capacity);
  }

  backlog(): number {
    const hi = this.slot * FEED_STRIDE;
    return (this.index[hi]! - Atomics.load(this.index, hi + FEED_TAIL)) >>> 0;
  }

  flush(): boolean {
    if (!this.held) return true;
    if (!this.copy()) return false;
    this.held = false;
    return true;
  }

  push(op: number, evaluate: (sink: ScriptFeedSink) => string | undefined): boolean {
    if (this.held) throw new SledgeError('SLEDGE_E_INTERNAL', 'a feed record was pushed while another one is held (call flush() first)');
    this.rec.start(op);
    this.rec.finish(evaluate(this.rec));
    if (this.rec.len > this.capacity / 4) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `one script transaction encodes to ${this.rec.len} bytes; the native loop's feed takes up to ${this.capacity / 4} (set vuLoop to typescript)`);
    }
    if (this.copy()) return true;
    this.held = true;
    return false;
  }

  /** The built record into the ring, wrapping to its start when it does not fit before the end; false when full. */
  private copy(): boolean {
    const hi = this.slot * FEED_STRIDE;
    const head = this.index[hi]! >>> 0;
    const tail = Atomics.load(this.index, hi + FEED_TAIL) >>> 0;
    const used = (head - tail) >>> 0;
    const at = head & (this.capacity - 1);
    const len = this.rec.len;
    const toEnd = this.capacity - at;
    const skip = len > toEnd ? toEnd : 0;
    if (used + skip + len > this.capacity) return false;
    if (skip) this.view.setUint32(at, FEED_WRAP, true);
    const start = skip ? 0 : at;
    this.bytes.set(this.rec.buf.subarray(0, len), start);
    Atomics.store(this.index, hi, (head + skip + len) | 0);
    return true;
  }
}

/** Starts a script run on the addon: the feeds and latency rings are allocated here. */
export function startScriptRun(b: ScriptBinding, conninfo: string, opts: ScriptNativeStartOptions): ScriptNativeHandle {
  const slots = opts.vus.length;
  const ringIndex = new Int32Array(new SharedArrayBuffer(Math.max(1, slots) * RING_STRIDE * 4));
  const ringData = new Int32Array(new SharedArrayBuffer(Math.max(1, slots) * RING_CAPACITY * 2 * 4));
  const feedIndex = new Int32Array(new SharedArrayBuffer(Math.max(1, slots) * FEED_STRIDE * 4));
  const feedBuf = new SharedArrayBuffer(Math.max(1, slots) * FEED_CAPACITY);
  const feedData = new Int32Array(feedBuf);
  const feedBytes = new Uint8Array(feedBuf);
  const feeds = opts.vus.map((_, s) => new FeedWriter(feedIndex, feedBytes, s, FEED_CAPACITY));
  const id = b.startScript({ ...opts, conninfo, ringIndex, ringData, ringCapacity: RING_CAPACITY, feedIndex, feedData, feedCapacity: FEED_CAPACITY });
  const mask = RING_CAPACITY - 1;
  let disposed = false;
  const live = () => {
    if (disposed) throw new SledgeError('SLEDGE_E_INTERNAL', 'the native script run was disposed');
    return id;
  };
  return {
    slots,
    feed: (slot) => feeds[slot]!,
    drainLatency(onRecord) {
      live();
      let n = 0;
      for (let s = 0; s < slots; s++) {
        const hi = s * RING_STRIDE;
        const head = Atomics.load(ringIndex, hi);
        let tail = ringIndex[hi + RING_TAIL]!;
        const base = s * RING_CAPACITY * 2;
        while (tail !== head) {
          const k = base + ((tail & mask) << 1);
          const meta = ringData[k]!;
          onRecord(s, meta & 0xff, ringData[k + 1]!, (meta & REC_MEASURING) !== 0);
          tail = (tail + 1) | 0;
          n++;
        }
        Atomics.store(ringIndex, hi + RING_TAIL, tail);
      }
      return n;
    },
    poll() {
      const r = b.pollScript(live());
      const logs: { vu: number; text: string }[] = [];
      for (let i = 0; i + 1 < r.logs.length; i += 2) logs.push({ vu: r.logs[i] as number, text: r.logs[i + 1] as string });
      return { live: r.live, logs };
    },
    results: () => b.scriptResults(live()),
    dispose() {
      if (disposed) return;
      disposed = true;
      b.disposeScript(id);
    },
  };
}
