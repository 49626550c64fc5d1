import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobStreamFrame } from '@sledge/protocol';
import { sleep, startServer, submit, tempDir, waitJob, Watcher, type Server } from './harness.js';
import { sqliteFromTemplate } from '../sqlite-template.js';

/**
 * Load: 50 WebSocket viewers on one run. Three short 1-VU SQLite runs, each
 * watched by 50 viewers. Asserted: every viewer receives the result frame
 * with no gap or duplicate seq, and the server's RSS stays under a generous
 * bound. One VU, not paced.
 * What the viewers cost the run (NOPM with 0 against 50 viewers, interleaved,
 * with the spread) is a measurement, so it is `pnpm bench viewers`
 * (bench/viewers.js): until 2026-12-01 this file also ran three 0-viewer
 * runs that asserted only that the job completed, to print that comparison.
 */
const target = { engine: 'sqlite', file: 'viewers.sqlite' };
const VIEWERS = 50;
const RUNS = 3;
/** Generous: the server idles at ~100-150 MB; 50 viewers of a 1-VU run must not add hundreds of MB. */
const RSS_BOUND_MB = 600;

const contiguous = (frames: JobStreamFrame[]) => frames.every((f, i) => i === 0 || f.seq === frames[i - 1]!.seq + 1);

describe('load: 50 viewers on one run', () => {
  let srv: Server;

  beforeAll(async () => {
    srv = await startServer(tempDir('viewers'));
    sqliteFromTemplate(srv, target.file);
  });

  afterAll(async () => {
    await srv?.stop();
  });

  it('all 50 viewers get the result of each of three runs; RSS bounded', async () => {
    const nopm: number[] = [];
    const rss: number[] = [];
    const idleRss = srv.rssMb();
    const n = VIEWERS;
    for (let i = 0; i < RUNS; i++) {
      const run = await submit(srv, { type: 'run', target, tprocc: { vus: 1, rampup: 0, duration: 0.2, tcRefreshSec: 2 } });
      const viewers = Array.from({ length: n }, () => new Watcher(srv, run.id));
      await Promise.all(viewers.map((v) => v.open()));
      let peak = srv.rssMb();
      const sampler = setInterval(() => (peak = Math.max(peak, srv.rssMb())), 250);
      let job: Job;
      try {
        job = await waitJob(srv, run.id, 120_000);
        // The result frame is sent with the job's last frames: give slow sockets a moment.
        const end = Date.now() + 10_000;
        while (viewers.some((v) => !v.has('result')) && Date.now() < end) await sleep(100);
      } finally {
        clearInterval(sampler);
        for (const v of viewers) v.close();
      }
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const got = viewers.filter((v) => v.has('result')).length;
      expect(got, `${got} of ${n} viewers received the result frame`).toBe(n);
      for (const v of viewers) expect(contiguous(v.seqFrames)).toBe(true);
      expect(peak).toBeLessThan(RSS_BOUND_MB);
      nopm.push(job.result!.nopm);
      rss.push(peak);
    }
    console.log(
      `[fault ws-viewers] SQLite 1 VU, three 12 s runs with ${VIEWERS} viewers each: NOPM ${nopm.join(', ')}; ` +
        `peak RSS ${rss.map((x) => x.toFixed(0)).join(', ')} MB (idle ${idleRss.toFixed(0)} MB, after ${srv.rssMb().toFixed(0)} MB). ` +
        `NOPM against 0 viewers: pnpm bench viewers`,
    );
  });
});
