import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobStreamFrame, ServerFrame } from '@sledge/protocol';
import { sleep, startServer, submit, tempDir, waitJob, waitStatus, Watcher, type Server } from './harness.js';
import { sqliteFromTemplate } from '../sqlite-template.js';

/**
 * Fault: a viewer's WebSocket drops mid-run (no close handshake) and the
 * viewer resumes on a new socket with {"t":"subscribe","jobId",since:<last
 * seq>}. It gets exactly the frames it missed and then the live ones: no gap
 * and no duplicate seq, and the same frames as a viewer that never dropped.
 */
const target = { engine: 'sqlite', file: 'ws.sqlite' };

/** Seqs must run +1 from `from` with no gap and no duplicate; returns the problems found. */
function seqProblems(frames: JobStreamFrame[], from: number): string[] {
  const problems: string[] = [];
  let expected = from;
  for (const f of frames) {
    if (f.seq !== expected) problems.push(f.seq < expected ? `duplicate/old seq ${f.seq} (expected ${expected})` : `gap: seq ${f.seq} after ${expected - 1}`);
    expected = f.seq + 1;
  }
  return problems;
}

const isEnd = (f: ServerFrame) => f.t === 'status' && f.status === 'completed';

describe('fault: WebSocket dropped mid-run, resumed with since', () => {
  let srv: Server;

  beforeAll(async () => {
    srv = await startServer(tempDir('ws'));
    sqliteFromTemplate(srv, target.file);
  });

  afterAll(async () => {
    await srv?.stop();
  });

  it('resumes without a gap or a duplicate, with the frames a steady viewer received', async () => {
    const run = await submit(srv, { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.25, tcRefreshSec: 2 } });
    const steady = new Watcher(srv, run.id);
    await steady.open();
    await waitStatus(srv, run.id, ['measuring']);
    await sleep(2000);

    // A viewer that joins mid-run, drops twice and resumes each time.
    const dropper = new Watcher(srv, run.id);
    await dropper.open();
    const snap = await dropper.waitFor((f) => f.t === 'snapshot');
    const from = snap.t === 'snapshot' ? snap.snapshot.seq + 1 : NaN;
    const resumes: { since: number; missedMs: number }[] = [];
    for (const missedMs of [3000, 1500]) {
      await sleep(2000);
      dropper.drop();
      const since = dropper.lastSeq;
      await sleep(missedMs);
      await dropper.open(since);
      resumes.push({ since, missedMs });
    }
    await waitJob(srv, run.id, 120_000);
    await dropper.waitFor(isEnd, 10_000);
    await steady.waitFor(isEnd, 10_000);
    dropper.close();
    steady.close();

    // One snapshot only (the first subscribe); the resumes replayed from the ring.
    expect(dropper.frames.filter((f) => f.t === 'snapshot')).toHaveLength(1);
    const problems = seqProblems(dropper.seqFrames, from);
    expect(problems, problems.join('; ')).toEqual([]);
    // Frames were missed and replayed: the seq range covers the drops.
    const last = dropper.seqFrames[dropper.seqFrames.length - 1]!.seq;
    for (const r of resumes) expect(last).toBeGreaterThan(r.since);
    // Identical to what the steady viewer saw over the same seqs.
    expect(seqProblems(steady.seqFrames, steady.seqFrames[0]!.seq)).toEqual([]);
    const steadyRange = steady.seqFrames.filter((f) => f.seq >= from);
    expect(dropper.seqFrames).toEqual(steadyRange);
    console.log(
      `[fault ws-resume] ${dropper.seqFrames.length} frames (seq ${from}..${last}) across ${resumes.length} drops (${resumes.map((r) => `since ${r.since} after ${r.missedMs} ms away`).join(', ')}): 0 gaps, 0 duplicates`,
    );
  });
});
