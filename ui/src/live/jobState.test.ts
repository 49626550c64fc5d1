import { describe, expect, it } from 'vitest';
import type { JobStreamFrame } from '@sledge/protocol';
import { job, snapshot } from './fixtures.js';
import { appendAfter, applyFrame, fromSnapshot, mergeJob, MAX_LIVE_METRIC, MAX_LIVE_OUTPUT, type LiveJob } from './jobState.js';

const jid = 'ABCDEF0123456789ABCDEF01';
const apply = (s: LiveJob, f: JobStreamFrame) => applyFrame(s, f);

describe('applyFrame', () => {
  it('applies frames in seq order and ignores replays', () => {
    let s = fromSnapshot(snapshot());
    const f1: JobStreamFrame = { t: 'tcount', jobId: jid, seq: 11, engine: [{ ts: 2000, tpm: 600, nopm: 250 }], client: [] };
    const r1 = apply(s, f1);
    expect(r1.kind).toBe('applied');
    s = r1.state;
    expect(s.seq).toBe(11);
    expect(s.engine.map((x) => x.nopm)).toEqual([0, 250]);
    const again = apply(s, f1);
    expect(again.kind).toBe('duplicate');
    expect(again.state.engine).toHaveLength(2);
  });

  it('reports a gap instead of applying a frame from the future', () => {
    const s = fromSnapshot(snapshot());
    const r = apply(s, { t: 'vus', jobId: jid, seq: 13, vus: [] });
    expect(r.kind).toBe('gap');
    expect(r.state).toBe(s);
  });

  it('never duplicates points when a frame overlaps what the snapshot had', () => {
    const s = fromSnapshot(snapshot({ engine: [{ ts: 1000, tpm: 1, nopm: 1 }, { ts: 2000, tpm: 2, nopm: 2 }] }));
    const r = apply(s, { t: 'tcount', jobId: jid, seq: 11, engine: [{ ts: 2000, tpm: 2, nopm: 2 }, { ts: 3000, tpm: 3, nopm: 3 }], client: [] });
    expect(r.state.engine.map((x) => x.ts)).toEqual([1000, 2000, 3000]);
  });

  it('appends output lines by line seq and counts the total', () => {
    const s = fromSnapshot(snapshot());
    const r = apply(s, { t: 'output', jobId: jid, seq: 11, lines: [{ seq: 1, vu: 1, ts: 1, text: 'hello' }, { seq: 2, vu: 2, ts: 2, text: 'x' }] });
    expect(r.state.output.map((l) => l.seq)).toEqual([1, 2]);
    expect(r.state.outputTotal).toBe(2);
  });

  it('caps the output held in memory', () => {
    const lines = Array.from({ length: MAX_LIVE_OUTPUT }, (_, i) => ({ seq: i + 1, vu: 2, ts: i, text: `l${i}` }));
    const s = fromSnapshot(snapshot({ output: lines, outputTotal: MAX_LIVE_OUTPUT }));
    const r = apply(s, { t: 'output', jobId: jid, seq: 11, lines: [{ seq: MAX_LIVE_OUTPUT + 1, vu: 2, ts: 0, text: 'new' }] });
    expect(r.state.output).toHaveLength(MAX_LIVE_OUTPUT);
    expect(r.state.output.at(-1)!.text).toBe('new');
    expect(r.state.output[0]!.seq).toBe(2);
    expect(r.state.outputTotal).toBe(MAX_LIVE_OUTPUT + 1);
  });

  it('sets start and end times from status frames and keeps the result', () => {
    let s = fromSnapshot(snapshot({ job: job({ status: 'queued', startedAt: undefined }) }));
    s = apply(s, { t: 'status', jobId: jid, seq: 11, status: 'connecting', ts: Date.parse('2026-01-01T10:00:05Z') }).state;
    expect(s.job.startedAt).toBe('2026-01-01T10:00:05.000Z');
    const result = { nopm: 100, tpm: 230, activeVus: 2, tpmSource: 'engine' as const, line: 'TEST RESULT : System achieved 100 NOPM from 230 PostgreSQL TPM', measuredSeconds: 30 };
    s = apply(s, { t: 'result', jobId: jid, seq: 12, result, timings: [] }).state;
    s = apply(s, { t: 'status', jobId: jid, seq: 13, status: 'completed', ts: Date.parse('2026-01-01T10:01:00Z') }).state;
    expect(s.job.status).toBe('completed');
    expect(s.job.endedAt).toBe('2026-01-01T10:01:00.000Z');
    expect(s.job.result && 'nopm' in s.job.result ? s.job.result.nopm : undefined).toBe(100);
  });

  it('keeps a trail of build progress for rows/s', () => {
    const progress = (ts: number, rows: number) => ({ ts, phase: 'load', expected: { stock: 1000 }, workers: [{ worker: 2, warehouses: [1, 1] as [number, number], rows: { stock: rows }, done: false }] });
    let s = fromSnapshot(snapshot({ job: job({ type: 'build' }) }));
    s = apply(s, { t: 'progress', jobId: jid, seq: 11, progress: progress(1000, 100) }).state;
    s = apply(s, { t: 'progress', jobId: jid, seq: 12, progress: progress(2000, 300) }).state;
    expect(s.progressTrail).toEqual([
      { ts: 1000, rows: 100 },
      { ts: 2000, rows: 300 },
    ]);
  });

  it('does not let a lagging job-list record undo a terminal status', () => {
    const s = fromSnapshot(snapshot({ job: job({ status: 'completed', endedAt: '2026-01-01T10:01:00.000Z' }) }));
    const merged = mergeJob(s, job({ status: 'measuring', summary: 'x' }));
    expect(merged.job.status).toBe('completed');
    expect(merged.job.summary).toBe('x');
  });
});

describe('appendAfter', () => {
  it('keeps only items beyond the last key', () => {
    expect(appendAfter([1, 2, 3], [2, 3, 4, 5], (x) => x)).toEqual([1, 2, 3, 4, 5]);
    const same = [1];
    expect(appendAfter(same, [1], (x) => x)).toBe(same);
  });
});

describe('metric frames', () => {
  it('appends samples by kind and keeps memory bounded', () => {
    const many = Array.from({ length: MAX_LIVE_METRIC }, (_, i) => ({ ts: i, data: { n: i } }));
    let s = fromSnapshot(snapshot({ metrics: { ash: many } }));
    const r = applyFrame(s, { t: 'metric', jobId: 'ABCDEF0123456789ABCDEF01', seq: 11, kind: 'ash', samples: [{ ts: MAX_LIVE_METRIC, data: { n: -1 } }] });
    s = r.state;
    expect(s.metrics['ash']).toHaveLength(Math.floor(MAX_LIVE_METRIC * 0.75));
    expect((s.metrics['ash']!.at(-1) as { ts: number }).ts).toBe(MAX_LIVE_METRIC);
    expect(s.metricsDropped['ash']).toBe(MAX_LIVE_METRIC + 1 - Math.floor(MAX_LIVE_METRIC * 0.75));
    const c = applyFrame(s, { t: 'metric', jobId: 'ABCDEF0123456789ABCDEF01', seq: 12, kind: 'cpu', samples: [{ ts: 5, source: 'db', data: {} }] }).state;
    expect(c.metrics['cpu']).toEqual([{ ts: 5, source: 'db', data: {} }]);
    expect(c.metrics['ash']).toBe(s.metrics['ash']);
  });

  it('keeps the check items a snapshot carries', () => {
    const s = fromSnapshot(snapshot({ check: [{ name: 'C1', ok: true, detail: 'ok' }] }));
    expect(s.check).toEqual([{ name: 'C1', ok: true, detail: 'ok' }]);
    expect(fromSnapshot(snapshot()).check).toBeUndefined();
  });
});
