import { describe, expect, it } from 'vitest';
import { FeedWriter } from '../lib/index.js';

/**
 * The script feed's producer side (lib/script-feed.ts) against a reader of
 * src/pgvu/script_feed.h's layout written here: records in order, a wrap
 * marker where a record does not fit before the ring's end, a full ring
 * holding the record back until the reader frees room, NUL-terminated text.
 */
const CAP = 256;

function ring(slots = 2) {
  const index = new Int32Array(new SharedArrayBuffer(slots * 32 * 4));
  const data = new Uint8Array(new SharedArrayBuffer(slots * CAP));
  return { index, data };
}

interface Rec { op: number; steps: { code: number; params: (string | null)[] }[]; error: string }

/** script_feed.h's Feed::next + release, in JavaScript. */
function readAll(index: Int32Array, data: Uint8Array, slot: number): { recs: Rec[]; wraps: number } {
  const base = slot * CAP;
  const view = new DataView(data.buffer, base, CAP);
  const dec = new TextDecoder();
  const recs: Rec[] = [];
  let wraps = 0;
  for (;;) {
    const head = Atomics.load(index, slot * 32) >>> 0;
    let tail = index[slot * 32 + 16]! >>> 0;
    if (head === tail) return { recs, wraps };
    const at = tail & (CAP - 1);
    const len = view.getUint32(at, true);
    if (len === 0xffffffff) {
      wraps++;
      Atomics.store(index, slot * 32 + 16, (tail + (CAP - at)) | 0);
      continue;
    }
    expect(len % 4).toBe(0);
    expect(at + len).toBeLessThanOrEqual(CAP);
    const rec: Rec = { op: view.getUint16(at + 4, true), steps: [], error: '' };
    const n = view.getUint16(at + 6, true);
    const errLen = view.getUint32(at + 8, true);
    let p = at + 12;
    for (let s = 0; s < n; s++) {
      const code = view.getUint16(p, true);
      const np = view.getUint16(p + 2, true);
      p += 4;
      const params: (string | null)[] = [];
      for (let k = 0; k < np; k++) {
        const l = view.getInt32(p, true);
        p += 4;
        if (l < 0) { params.push(null); continue; }
        expect(data[base + p + l]).toBe(0);
        params.push(dec.decode(data.slice(base + p, base + p + l)));
        p += (l + 1 + 3) & ~3;
      }
      rec.steps.push({ code, params });
    }
    rec.error = dec.decode(data.slice(base + p, base + p + errLen));
    expect((p + errLen + 3) & ~3).toBe(at + len);
    recs.push(rec);
    tail += len;
    Atomics.store(index, slot * 32 + 16, tail | 0);
  }
}

describe('the script feed writer', () => {
  it('encodes steps, NULL and UTF-8 parameters and the error in the native layout', () => {
    const { index, data } = ring();
    const w = new FeedWriter(index, data, 1, CAP);
    expect(w.push(3, (s) => { s.control('begin'); s.sql(7, ['42', null, 'é€']); s.control('commit'); return 'x:1: boom'; })).toBe(true);
    expect(w.push(0, (s) => { s.control('rollback'); return undefined; })).toBe(true);
    expect(w.backlog()).toBeGreaterThan(0);
    expect(readAll(index, data, 0).recs).toEqual([]); // the other slot is untouched
    const { recs } = readAll(index, data, 1);
    expect(recs).toEqual([
      { op: 3, steps: [{ code: 0xfff0, params: [] }, { code: 7, params: ['42', null, 'é€'] }, { code: 0xfff1, params: [] }], error: 'x:1: boom' },
      { op: 0, steps: [{ code: 0xfff2, params: [] }], error: '' },
    ]);
    expect(w.backlog()).toBe(0);
  });

  it('holds a record back while the ring is full, wraps at its end, and loses or repeats nothing', () => {
    const { index, data } = ring(1);
    const w = new FeedWriter(index, data, 0, CAP);
    const seen: string[] = [];
    let wraps = 0;
    let n = 0;
    for (let round = 0; round < 50; round++) {
      while (w.flush() && w.push(n % 5, (s) => { s.sql(1, [String(n), 'v'.repeat(n % 13)]); return undefined; })) n++;
      if (!w.flush()) {
        // full: the held record is number n, sent by a flush once the reader has freed room
        const r = readAll(index, data, 0);
        wraps += r.wraps;
        for (const rec of r.recs) seen.push(rec.steps[0]!.params[0]!);
        expect(w.flush()).toBe(true);
        n++;
      }
    }
    const r = readAll(index, data, 0);
    wraps += r.wraps;
    for (const rec of r.recs) seen.push(rec.steps[0]!.params[0]!);
    expect(seen).toEqual(Array.from({ length: n }, (_, i) => String(i)));
    expect(wraps).toBeGreaterThan(5);
  });

  it('refuses a transaction too large for the feed, saying what to do', () => {
    const { index, data } = ring(1);
    const w = new FeedWriter(index, data, 0, CAP);
    expect(() => w.push(0, (s) => { s.sql(0, ['x'.repeat(200)]); return undefined; })).toThrow(/encodes to \d+ bytes.*set vuLoop to typescript/);
  });
});
