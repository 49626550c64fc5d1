import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore, OUTPUT_HEAD_LINES, OUTPUT_TAIL_LINES, droppedNote } from '@sledge/jobstore';
import type { Job, JobStreamFrame, ServerFrame, Snapshot } from '@sledge/protocol';
import { JobContext } from '../../dist/engine/job-context.js';
import { buildSnapshot } from '../../dist/engine/snapshot.js';
import { JobStream, RING_BYTES } from '../../dist/engine/stream.js';
import { getJson, outputOf, runToEnd, startServer, tempDir, type Line, type Server } from './harness.js';
import { sqliteFromTemplate } from '../sqlite-template.js';

/**
 * Resource bound: a job's output cannot grow without limit. Each VU keeps its
 * first OUTPUT_HEAD_LINES and last OUTPUT_TAIL_LINES lines; the lines in
 * between are replaced by one stored note saying how many were dropped. The
 * live stream still carries every line, but its resume ring is bounded in
 * bytes, so a flood of output does not pile up in the server's memory.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const jobInput = { type: 'run', workload: 'tprocc', engine: 'sqlite', config: { target: { engine: 'sqlite', file: 'x.sqlite' } }, seed: 1, profileId: 0, clientVersion: 'fault suite' } as const;
const KEPT = OUTPUT_HEAD_LINES + 1 + OUTPUT_TAIL_LINES;

/** Every stored line of a job, straight from the store (paged). */
function stored(store: JobStore, id: string, vu?: number): Line[] {
  const all: Line[] = [];
  for (let after = 0; ; ) {
    const page = store.getOutput(id, { afterSeq: after, limit: 100_000, ...(vu === undefined ? {} : { vu }) }).lines;
    all.push(...page);
    if (page.length < 100_000) return all;
    after = page[page.length - 1]!.seq;
  }
}

describe('resource bound: job output', () => {
  const dir = tempDir('output');
  let store: JobStore;

  beforeAll(() => {
    store = JobStore.open(join(dir, 'sledge.db'));
  });
  afterAll(() => store?.close());

  it('keeps the first and last lines of each VU and a note counting the dropped ones', () => {
    const id = store.createJob(jobInput).id;
    const N = OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES + 25_000;
    let seq = 0;
    // VU 2 floods; VU 3 prints a few lines in between; batches as a worker posts them.
    for (let i = 0; i < N; i += 500) {
      const batch = Array.from({ length: Math.min(500, N - i) }, (_, k) => ({ vu: 2, ts: 1_000_000 + i + k, text: `line ${i + k + 1}` }));
      if (i % 5000 === 0) batch.push({ vu: 3, ts: 1_000_000 + i, text: `vu 3 at ${i}` });
      const r = store.appendOutput(id, batch);
      // Seqs stay the count of lines produced, contiguous per append.
      expect(r.firstSeq).toBe(seq + 1);
      seq = r.lastSeq;
    }
    store.flush();
    const vu2 = stored(store, id, 2);
    expect(vu2).toHaveLength(KEPT);
    expect(vu2.slice(0, OUTPUT_HEAD_LINES).map((l) => l.text)).toEqual(Array.from({ length: OUTPUT_HEAD_LINES }, (_, k) => `line ${k + 1}`));
    expect(vu2[OUTPUT_HEAD_LINES]!.text).toBe(droppedNote(N - OUTPUT_HEAD_LINES - OUTPUT_TAIL_LINES));
    expect(vu2.slice(OUTPUT_HEAD_LINES + 1).map((l) => l.text)).toEqual(Array.from({ length: OUTPUT_TAIL_LINES }, (_, k) => `line ${N - OUTPUT_TAIL_LINES + k + 1}`));
    // In seq order, the note sits between the head and the tail, at the first dropped line's place.
    expect(vu2.every((l, i) => i === 0 || l.seq > vu2[i - 1]!.seq)).toBe(true);
    // The other VU lost nothing; the unfiltered total counts every line produced.
    expect(stored(store, id, 3)).toHaveLength(Math.ceil(N / 5000));
    expect(store.getOutput(id, { limit: 1 }).total).toBe(seq);
    expect(stored(store, id)).toHaveLength(KEPT + Math.ceil(N / 5000));
    // The note is shown where readers look: the snapshot's last lines include the tail, and a search finds the note.
    expect(store.getOutput(id, { q: 'dropped here' }).lines.map((l) => l.vu)).toEqual([2]);
  });

  it('a flood of output through the live stream keeps the store and the server memory bounded; a viewer still gets every line', () => {
    const job = store.createJob(jobInput) as Job;
    let snap: Snapshot | null = null;
    const stream = new JobStream(job.id, () => (snap = buildSnapshot(store, job.id)));
    const ctx = new JobContext(job, store, stream, () => undefined, []);
    const viewer: JobStreamFrame[] = [];
    stream.subscribe({ send: (f: ServerFrame) => ('seq' in f ? viewer.push(f as JobStreamFrame) : 0) > 0, backlog: () => 0 });
    const text = (vu: number, n: number) => `Vuser ${vu}: New Order: w_id 1 d_id ${n % 10} c_id ${n % 3000} ol_cnt 10: commit (0.${n % 1000} ms) padding padding padding`;
    const PER_VU = 150_000;
    const before = heapMb();
    let viewerLines = 0;
    for (let i = 0; i < PER_VU; i += 500) {
      for (const vu of [2, 3]) ctx.outputMany(Array.from({ length: 500 }, (_, k) => ({ vu, text: text(vu, i + k) })));
      stream.flush();
      if (i % 10_000 === 0) store.flush();
      // The viewer renders and lets go of what it received (a browser keeps its own bounded log).
      for (const f of viewer.splice(0)) if (f.t === 'output') viewerLines += f.lines.length;
    }
    store.flush();
    stream.flush();
    for (const f of viewer.splice(0)) if (f.t === 'output') viewerLines += f.lines.length;
    const grown = heapMb() - before;
    const ring = stream.ringSize;
    console.log(
      `[fault output] ${2 * PER_VU} lines (${((2 * PER_VU * text(2, 0).length) / 2 ** 20).toFixed(0)} MB of text) through one job: heap +${grown.toFixed(1)} MB, resume ring ${ring.frames} frames / ${(ring.bytes / 2 ** 20).toFixed(1)} MB, stored ${stored(store, job.id).length} lines`,
    );
    expect(viewerLines).toBe(2 * PER_VU);
    expect(ring.bytes).toBeLessThanOrEqual(RING_BYTES);
    // ~26 MB of text (55 MB of heap when every frame was kept) went through: the server holds on to a bounded part of it.
    expect(grown).toBeLessThan(40);
    expect(stored(store, job.id)).toHaveLength(2 * KEPT);
    // A new viewer's snapshot ends with the tail of the output.
    stream.subscribe({ send: () => true, backlog: () => 0 });
    expect(snap).not.toBeNull();
    expect(snap!.output[snap!.output.length - 1]!.text).toBe(text(3, PER_VU - 1));
  });
});

describe('resource bound: a test-driver run through the server', () => {
  let srv: Server;
  const target = { engine: 'sqlite', file: 'flood.sqlite' };

  beforeAll(async () => {
    srv = await startServer(tempDir('flood'));
    sqliteFromTemplate(srv, target.file);
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('stores the head, a note and the tail of each VU, and the VUs\' last words', async () => {
    const iterations = OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES + 3000;
    const job = await runToEnd(srv, { type: 'run', target, tprocc: { driver: 'test', vus: 2, totalIterations: iterations } });
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    for (const vu of [2, 3]) {
      const lines = await outputOf(srv, job.id, `&vu=${vu}`);
      const notes = lines.filter((l) => /dropped here/.test(l.text));
      expect(notes).toHaveLength(1);
      const dropped = Number(/^\.\.\. (\d+) output lines/.exec(notes[0]!.text)?.[1]);
      // Every transaction printed a line; the VU's own lines beyond head + tail were dropped.
      expect(lines.length).toBe(KEPT);
      expect(dropped).toBeGreaterThanOrEqual(iterations - OUTPUT_HEAD_LINES - OUTPUT_TAIL_LINES);
      expect(dropped).toBeLessThan(iterations - OUTPUT_HEAD_LINES - OUTPUT_TAIL_LINES + 10);
      expect(lines[lines.length - 1]!.text).toMatch(/^(New Order|Payment|Delivery|Stock Level|Order Status): .*: (commit|rollback) \(/);
    }
    const status = (await outputOf(srv, job.id, '&vu=0')).map((l) => l.text);
    expect(status).toEqual(expect.arrayContaining(['Vuser 2:FINISHED SUCCESS', 'Vuser 3:FINISHED SUCCESS', 'ALL VIRTUAL USERS COMPLETE']));
    const total = (await getJson<{ total: number }>(srv, `/jobs/${job.id}/output?limit=1`)).total;
    expect(total).toBeGreaterThan(2 * iterations);
  });
});
