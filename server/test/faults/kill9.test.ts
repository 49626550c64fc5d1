import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientSample, EngineSample, Job, JobList, LatencySample } from '@sledge/protocol';
import { dropPg, exportOf, getJson, outputOf, pgTarget, runToEnd, sleep, startServer, submit, tempDir, waitStatus, Watcher, type Server } from './harness.js';

/**
 * Fault: the server is killed with SIGKILL in the middle of a timed run, then
 * restarted on the same data directory. The run reads `interrupted`; every
 * output line and every sample the server had produced more than 1 s before
 * the kill is stored (the store flushes once a second; a timer may fire up
 * to TIMER_SLACK_MS late on a loaded machine); the other jobs and
 * the job list are unchanged; the target's schema still checks. Once on
 * SQLite and once on PostgreSQL (database sledge_sf_kill, 1 warehouse).
 *
 * What the server produced is witnessed independently of the store: a
 * WebSocket viewer records every frame as it is sent (the stream does not
 * flush the store). Seconds of data lost are printed as [fault kill9].
 */
const PG = 'sledge_sf_kill';
const targets = {
  sqlite: { engine: 'sqlite', file: 'kill.sqlite' },
  postgresql: pgTarget(PG, 'sf-kill-pw'),
} as const;
/** The store's flush interval: what a crash may lose. */
const FLUSH_WINDOW_MS = 1000;
/** How late the once-a-second flush timer may fire on a busy 2-core machine. */
const TIMER_SLACK_MS = 200;

type Witnessed = { output: Map<number, string>; outputTs: Map<number, number>; engine: EngineSample[]; client: ClientSample[]; latency: LatencySample[] };

function witnessed(w: Watcher): Witnessed {
  const out: Witnessed = { output: new Map(), outputTs: new Map(), engine: [], client: [], latency: [] };
  const lines = (ls: { seq: number; ts: number; text: string }[]) => {
    for (const l of ls) {
      out.output.set(l.seq, l.text);
      out.outputTs.set(l.seq, l.ts);
    }
  };
  for (const f of w.frames) {
    if (f.t === 'snapshot') {
      lines(f.snapshot.output);
      out.engine.push(...f.snapshot.engine);
      out.client.push(...f.snapshot.client);
      out.latency.push(...f.snapshot.latency);
    } else if (f.t === 'output') lines(f.lines);
    else if (f.t === 'tcount') {
      out.engine.push(...f.engine);
      out.client.push(...f.client);
    } else if (f.t === 'latency') out.latency.push(...f.samples);
  }
  return out;
}

describe('fault: kill -9 mid-run', () => {
  const dataDir = tempDir('kill');
  let srv: Server;
  const figures: string[] = [];

  beforeAll(async () => {
    dropPg(PG);
    srv = await startServer(dataDir);
    for (const target of Object.values(targets)) {
      const b = await runToEnd(srv, { type: 'build', target, tprocc: { warehouses: 1 } });
      expect(b.status, JSON.stringify(b.error)).toBe('completed');
    }
    // A completed run with a result: one of the "other jobs" that must survive unchanged.
    const r = await runToEnd(srv, { type: 'run', target: targets.sqlite, tprocc: { vus: 1, rampup: 0, duration: 0.1, tcRefreshSec: 2 } });
    expect(r.status, JSON.stringify(r.error)).toBe('completed');
  });

  afterAll(async () => {
    if (srv && !srv.exited) {
      await runToEnd(srv, { type: 'delete', target: targets.postgresql }).catch(() => undefined);
      await srv.stop();
    }
    dropPg(PG);
    console.log(figures.join('\n'));
  });

  for (const engine of ['postgresql', 'sqlite'] as const) {
    it(`${engine}: the run reads interrupted, nothing older than the last flush (1 s) is lost, other jobs unchanged, the schema checks`, async () => {
      const target = targets[engine];
      const before = await getJson<JobList>(srv, '/jobs?limit=100');
      expect(before.jobs.every((j) => ['completed', 'failed', 'stopped', 'interrupted'].includes(j.status))).toBe(true);
      const exportsBefore = new Map<string, unknown>();
      for (const j of before.jobs) exportsBefore.set(j.id, await exportOf(srv, j.id));

      const run = await submit(srv, { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 5, tcRefreshSec: 2 } });
      const viewer = new Watcher(srv, run.id);
      await viewer.open();
      await waitStatus(srv, run.id, ['measuring'], 120_000);
      // A random phase against the store's flush timer, so the figure is not always the same instant of its cycle.
      await sleep(6000 + Math.floor(Math.random() * 1000));
      const killTs = Date.now();
      await srv.kill9();
      viewer.close();

      srv = await startServer(dataDir);
      const job = await getJson<Job>(srv, `/jobs/${run.id}`);
      expect(job.status).toBe('interrupted');
      expect(job.error?.code).toBe('SLEDGE_E_INTERRUPTED');

      // Every line and sample produced more than FLUSH_WINDOW_MS before the kill is stored, unchanged.
      const seen = witnessed(viewer);
      const stored = await outputOf(srv, run.id);
      const storedText = new Map(stored.map((l) => [l.seq, l.text]));
      const tc = await getJson<{ engine: EngineSample[]; client: ClientSample[] }>(srv, `/jobs/${run.id}/tcount`);
      const lat = await getJson<LatencySample[]>(srv, `/jobs/${run.id}/latency`);
      const cut = killTs - FLUSH_WINDOW_MS - TIMER_SLACK_MS;
      const missing: { what: string; ts: number }[] = [];
      for (const [seq, text] of seen.output) {
        const ts = seen.outputTs.get(seq)!;
        if (storedText.get(seq) === undefined) missing.push({ what: `output #${seq}`, ts });
        else expect(storedText.get(seq)).toBe(text);
      }
      const tsSet = (xs: { ts: number }[]) => new Set(xs.map((x) => x.ts));
      const series = [
        ['engine sample', seen.engine, tsSet(tc.engine)],
        ['client sample', seen.client, tsSet(tc.client)],
        ['latency sample', seen.latency, tsSet(lat)],
      ] as const;
      for (const [what, xs, have] of series) for (const x of xs) if (!have.has(x.ts)) missing.push({ what, ts: x.ts });
      const late = missing.filter((m) => m.ts < cut);
      expect(late, `lost more than the last ${FLUSH_WINDOW_MS} ms (+${TIMER_SLACK_MS} ms timer slack): ${JSON.stringify(late.map((m) => ({ ...m, beforeKillMs: killTs - m.ts })))}`).toEqual([]);
      // The witness saw real data: lines, client samples each second, engine samples every 2 s.
      expect(seen.output.size).toBeGreaterThan(5);
      expect(seen.client.length).toBeGreaterThan(4);
      expect(seen.engine.length).toBeGreaterThan(2);
      expect(stored.map((l) => l.text)).toContain('Rampup complete, Taking start Transaction Count.');

      const lostMs = missing.length ? killTs - Math.min(...missing.map((m) => m.ts)) : 0;
      const newest = Math.max(...stored.map((l) => l.ts), ...tc.client.map((s) => s.ts), ...tc.engine.map((s) => s.ts));
      figures.push(
        `[fault kill9] ${engine}: data lost = ${(lostMs / 1000).toFixed(2)} s before the kill (${missing.length} of ${seen.output.size + seen.engine.length + seen.client.length + seen.latency.length} witnessed items: ${[...new Set(missing.map((m) => m.what.replace(/ #\d+$/, '')))].join(', ') || 'none'}); newest stored item ${((killTs - newest) / 1000).toFixed(2)} s before the kill`,
      );

      // The job list and every other job are unchanged.
      const after = await getJson<JobList>(srv, '/jobs?limit=100');
      expect(after.total).toBe(before.total + 1);
      expect(after.jobs.filter((j) => j.id !== run.id)).toEqual(before.jobs);
      for (const [id, doc] of exportsBefore) expect(await exportOf(srv, id), `job ${id} changed`).toEqual(doc);

      // The schema survived the kill: a check job passes.
      const check = await runToEnd(srv, { type: 'check', target });
      expect(check.status, JSON.stringify(check.error)).toBe('completed');
    });
  }
});
