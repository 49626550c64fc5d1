import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSample, Job } from '@sledge/protocol';
import { dropPg, getJson, outputOf, pgTarget, psql, restartPostgres, runToEnd, sleep, startServer, submit, tempDir, waitJob, waitStatus, type Server } from './harness.js';

/**
 * Fault: PostgreSQL itself restarts in the middle of a run's measured
 * window, in immediate mode (as a crash does): its cumulative statistics,
 * the pg_stat_database commit+rollback counter TPM is read from, start
 * again from zero. The run reconnects and completes; its TPM is not end -
 * start across the reset but the sum of the monitor's own per-interval
 * readings in which the counter did not go back, the result says so
 * (tpmCounterReset) and the output has a warning line. The TPM agrees with
 * the job's own live samples.
 *
 * The restart is the harness's restartPostgres (SLEDGE_PG_RESTART). Run it
 * under the suite's database lock: every session of the server is cut.
 */
const DB = 'sledge_sf_restart';
const target = pgTarget(DB, 'sf-restart-pw');
describe('fault: PostgreSQL restarts mid-run (its statistics reset)', () => {
  let srv: Server;

  beforeAll(async () => {
    dropPg(DB);
    srv = await startServer(tempDir('pgrestart'));
    const b = await runToEnd(srv, { type: 'build', target, tprocc: { warehouses: 1 } });
    expect(b.status, JSON.stringify(b.error)).toBe('completed');
  });

  afterAll(async () => {
    if (srv && !srv.exited) {
      await runToEnd(srv, { type: 'delete', target }).catch(() => undefined);
      await srv.stop();
    }
    dropPg(DB);
  });

  it('detects the counter reset, takes TPM from the per-interval readings and says so', async () => {
    const run = await submit(srv, { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.75, tcRefreshSec: 2 } });
    await waitStatus(srv, run.id, ['measuring'], 120_000);
    await sleep(12_000);
    const before = Number(psql('SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database'));
    const startedBefore = psql('SELECT pg_postmaster_start_time()');
    restartPostgres();
    // The immediate restart discarded the statistics: the counter starts again well below where it was.
    expect(psql('SELECT pg_postmaster_start_time()')).not.toBe(startedBefore);
    expect(Number(psql('SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database'))).toBeLessThan(before);

    const job: Job = await waitJob(srv, run.id, 180_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result!;
    const out = (await outputOf(srv, run.id)).map((l) => l.text);
    console.log(`[pg restart] ${res.line}; ${out.find((l) => l.startsWith('Warning: the PostgreSQL transaction counter'))}`);
    expect(res.tpmSource).toBe('engine');
    expect(res.tpmCounterReset).toBe(true);
    expect(out.some((l) => /^Warning: the PostgreSQL transaction counter was reset during the measured window \(.*\): TPM is the sum of the monitor's \d+ interval\(s\) in which it did not go back/.test(l))).toBe(true);
    expect(out).toContain(res.line);

    // The job's own live samples (every 2 s) in the measured window: the result agrees with them.
    const tc = await getJson<{ engine: EngineSample[] }>(srv, `/jobs/${run.id}/tcount`);
    const live = tc.engine.map((e) => e.tpm).filter((t) => t > 0).sort((a, b) => a - b);
    expect(live.length).toBeGreaterThan(5);
    const median = live[Math.floor(live.length / 2)]!;
    console.log(`[pg restart] result TPM ${res.tpm}, live samples ${live[0]}..${live[live.length - 1]} (median ${median})`);
    expect(res.tpm).toBeGreaterThan(0.5 * median);
    expect(res.tpm).toBeLessThan(2 * median);
    // NOPM comes from the schema (district.d_next_o_id): no reset there.
    expect(res.nopm).toBeGreaterThan(0);
  });
});
