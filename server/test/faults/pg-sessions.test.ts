import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientSample, Job, VuStatus } from '@sledge/protocol';
import { dropPg, getJson, outputOf, psql, runToEnd, sleep, startServer, submit, tempDir, waitJob, waitStatus, type Server } from './harness.js';
import { PACED } from '../helpers.js';
import { copyPgTprocc } from '../live-template.js';

/**
 * Fault: every database session of a PostgreSQL run (VUs, the monitor, the
 * ASH sampler) is terminated twice, then the database refuses new sessions
 * for 10 s. Whether the run completes depends on reconnection (the VUs
 * reconnect; full reconnection of every session is another issue's work):
 * this asserts the job's RECORD of the fault. The job ends in a defined state
 * (completed or failed, never hung and never lost), its output names the
 * terminations, its counters and stored series survive, and the server stays
 * up and runs the next job.
 *
 * The target's superuser is a role of this suite (sledge_sf_term_su), so the
 * sessions to terminate are exactly this run's: those in database
 * sledge_sf_term and those of the suite's roles (the ASH sampler logs in as
 * the superuser in the default database). Other sessions are never touched.
 *
 * The schema is a copy of the prebuilt 1-warehouse one (live-template.ts):
 * the subject is the faults, not the build. The VUs are paced (PACED,
 * helpers.ts): an idle VU session is still one to terminate, and a VU sees
 * its lost connection at its next transaction.
 */
const DB = 'sledge_sf_term';
const SU = 'sledge_sf_term_su';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: 'sf-term-pw', database: DB, superuser: SU, superuserPassword: 'sf-term-su-pw' };
const RUN_SESSIONS = `(datname = '${DB}' OR usename IN ('${DB}', '${SU}')) AND pid <> pg_backend_pid()`;
const terminateAll = () => Number(psql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE ${RUN_SESSIONS}`));
const sessions = () => psql(`SELECT coalesce(string_agg(application_name, ',' ORDER BY application_name), '') FROM pg_stat_activity WHERE ${RUN_SESSIONS}`);

/** Wait until both VUs have a session again (they reconnect on their own). */
async function vusConnected(timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  // VU sessions carry the job's session tag: sledge-vu-<n>~<tag>.
  while (!/sledge-vu-2~[0-9a-f]{8},sledge-vu-3~[0-9a-f]{8}/.test(sessions())) {
    if (Date.now() > end) throw new Error(`the VUs did not reconnect within ${timeoutMs} ms: ${sessions()}`);
    await sleep(200);
  }
}

function dropAll(): void {
  dropPg(DB);
  psql(`DROP ROLE IF EXISTS ${SU}`);
}

describe('fault: PostgreSQL sessions terminated mid-run', () => {
  let srv: Server;

  beforeAll(async () => {
    dropAll();
    psql(`CREATE ROLE ${SU} SUPERUSER LOGIN PASSWORD '${target.superuserPassword}'`);
    await copyPgTprocc({ database: DB, user: DB, password: target.password });
    srv = await startServer(tempDir('term'));
  });

  afterAll(async () => {
    // Undo the refusal even when the test failed half-way (each may fail when the copy never created it).
    for (const sql of [`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`, `ALTER ROLE ${SU} LOGIN`, `ALTER ROLE ${DB} LOGIN`]) {
      try {
        psql(sql);
      } catch {
        // nothing to undo
      }
    }
    if (srv && !srv.exited) {
      await runToEnd(srv, { type: 'delete', target }).catch(() => undefined);
      await srv.stop();
    }
    dropAll();
  });

  it('records the terminations and the refusal; the job ends in a defined state with its series; the server stays up', async () => {
    const duration = 0.6; // minutes: 36 s of measured window around the faults
    const run = await submit(srv, { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration, tcRefreshSec: 2, ...PACED } });
    await waitStatus(srv, run.id, ['measuring'], 120_000);
    const t0 = Date.now();
    await sleep(4000);
    const live = sessions();
    expect(live.split(',').map((n) => n.replace(/~[0-9a-f]{8}$/, ''))).toEqual(expect.arrayContaining(['sledge-ash', 'sledge-monitor', 'sledge-vu-2', 'sledge-vu-3']));
    const first = terminateAll();
    await vusConnected();
    await sleep(2000);
    const second = terminateAll();
    await vusConnected();
    // Refuse every new session of the run for 10 s, and end the ones that came back.
    psql(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS false`);
    psql(`ALTER ROLE ${SU} NOLOGIN`);
    psql(`ALTER ROLE ${DB} NOLOGIN`);
    const third = terminateAll();
    await sleep(10_000);
    psql(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`);
    psql(`ALTER ROLE ${SU} LOGIN`);
    psql(`ALTER ROLE ${DB} LOGIN`);
    console.log(`[fault pg-sessions] sessions before: ${live}; terminated ${first}, ${second}, then ${third} with connections refused for 10 s`);
    expect(first).toBeGreaterThanOrEqual(4);
    expect(second).toBeGreaterThanOrEqual(2);

    // Never hung: the job ends within the window plus the stop grace and a margin.
    const job: Job = await waitJob(srv, run.id, duration * 60_000 - (Date.now() - t0) + 60_000);
    expect(['completed', 'failed']).toContain(job.status);
    expect(job.endedAt).toBeTruthy();
    if (job.status === 'failed') {
      // The reason names which session failed and what it was doing (not only the client library's words).
      expect(job.error?.code).toBe('SLEDGE_E_DB');
      expect(job.error?.message).toMatch(/^the monitor could not take the (start|end) transaction count: /);
    } else {
      expect(job.result?.nopm).toBeGreaterThan(0);
    }

    // The output names the faults: sessions lost, errors classified as connection errors, reconnection attempts.
    const out = (await outputOf(srv, run.id)).map((l) => l.text);
    console.log(`[fault pg-sessions] output:\n  ${[...new Set(out.filter((l) => /lost|reconnect|error|terminat|refus|accepting|fail|counter/i.test(l)))].slice(0, 40).join('\n  ')}`);
    expect(out.some((l) => /Procedure Error \(connection/.test(l)), 'a VU transaction error classified as a lost connection').toBe(true);
    for (const vu of [2, 3]) expect(out, `Vuser ${vu} reports the lost connection`).toContain(`Vuser ${vu}: connection lost, reconnecting`);
    expect(out.some((l) => /terminat/i.test(l)), 'the termination reason is named').toBe(true);

    // Counters and stored series survive: VU counters, a client sample for every second, engine samples before the faults.
    const vus = await getJson<VuStatus[]>(srv, `/jobs/${run.id}/vus`);
    expect(vus.map((v) => v.vu).sort()).toEqual([2, 3]);
    expect(vus.every((v) => v.commits > 0 && v.errors > 0)).toBe(true);
    // The final VU grid of an ended job shows no VU still running.
    expect(vus.map((v) => v.state)).toEqual(['finished', 'finished']);
    const tc = await getJson<{ engine: { ts: number }[]; client: ClientSample[] }>(srv, `/jobs/${run.id}/tcount`);
    expect(tc.engine.filter((s) => s.ts < t0 + 4000).length).toBeGreaterThan(0);
    const measured = tc.client.filter((s) => s.phase === 'measuring');
    expect(measured.length).toBeGreaterThan(duration * 60 * 0.8);
    expect(measured.some((s) => s.errors > 0)).toBe(true);
    console.log(`[fault pg-sessions] job ${job.status}${job.error ? ` (${job.error.code}: ${job.error.message})` : `: ${job.result?.line}`}; ${tc.engine.length} engine samples, ${tc.client.length} client samples; VUs ${vus.map((v) => `${v.vu}: ${v.commits} commits ${v.errors} errors ${v.state}`).join('; ')}`);

    // The server stayed up and still works on this database: the schema checks.
    expect(srv.exited).toBe(false);
    const check = await runToEnd(srv, { type: 'check', target });
    expect(check.status, JSON.stringify(check.error)).toBe('completed');
  });
});
