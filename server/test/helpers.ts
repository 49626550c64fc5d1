import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Job } from '@sledge/protocol';
import { buildApp, type AppOptions, type SledgeApp } from '../dist/app.js';

export type { SledgeApp };

/**
 * Paced TPROC-C VUs: `tprocc.keyAndThink` with a short keying and thinking
 * table (20 ms keying before each transaction, a 50 ms mean negative-exponential
 * thinking time after it), about 10-13 transactions a second per VU instead of
 * hundreds. Spread it into a run's `tprocc` (`{ ...RUN, ...PACED }`) where the
 * load level is not the test's subject (NOPM > 0, lines printed, faults,
 * reconnects, steps, reports): the CI machine's cores are shared by every test
 * running beside it, and a VU flat out spends a core on load no assertion
 * reads. The VUs really sleep (the TS and the native loops alike), a stop wakes
 * them at once, and a dropped session is seen at the next transaction, within
 * ~0.5 s. Flat-out load stays covered where it is the subject: sqlite-wal,
 * sqlite-lifecycle, native-vu*'s timed runs and MariaDB reconnect, and the
 * timed runs of postgresql.test.ts and mariadb.test.ts (TPM/NOPM ratio, ASH);
 * ASH samples of active sessions are never paced (ash-scope-*).
 */
const PACED_TIMES = { keyingSec: 0.02, thinkMeanSec: 0.05 };
export const PACED = {
  keyAndThink: true,
  keyThink: { neworder: PACED_TIMES, payment: PACED_TIMES, delivery: PACED_TIMES, stocklevel: PACED_TIMES, orderstatus: PACED_TIMES },
} as const;

/** A server app on a fresh data directory (tests use the built dist: workers load plain JS). */
export async function makeApp(opts: Partial<AppOptions> = {}): Promise<SledgeApp & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sledge-test-'));
  const app = await buildApp({ dataDir, logger: false, uiDir: null, ...opts });
  return { ...app, dataDir };
}

export async function post(s: SledgeApp, url: string, body: unknown) {
  const r = await s.app.inject({ method: 'POST', url, payload: body as object });
  return { status: r.statusCode, body: r.body ? (JSON.parse(r.body) as Record<string, unknown>) : {} };
}

export async function get<T = Record<string, unknown>>(s: SledgeApp, url: string): Promise<T> {
  const r = await s.app.inject({ method: 'GET', url });
  if (r.statusCode >= 400) throw new Error(`GET ${url}: ${r.statusCode} ${r.body}`);
  return JSON.parse(r.body) as T;
}

/** POST a job and wait until it ends (throws unless the job was accepted). */
export async function runJob(s: SledgeApp, body: Record<string, unknown>, timeoutMs?: number): Promise<Job> {
  const r = await post(s, '/api/v1/jobs', body);
  if (r.status !== 201) throw new Error(`POST /jobs ${r.status}: ${JSON.stringify(r.body)}`);
  return waitJob(s, String(r.body.id), timeoutMs);
}

/** Wait until a job reaches a terminal status. */
export async function waitJob(s: SledgeApp, id: string, timeoutMs = 240_000): Promise<Job> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const j = await get<Job>(s, `/api/v1/jobs/${id}`);
    if (['completed', 'failed', 'stopped', 'interrupted'].includes(j.status)) return j;
    if (Date.now() > end) throw new Error(`job ${id} still ${j.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function waitStatus(s: SledgeApp, id: string, statuses: string[], timeoutMs = 60_000): Promise<Job> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const j = await get<Job>(s, `/api/v1/jobs/${id}`);
    if (statuses.includes(j.status)) return j;
    if (Date.now() > end) throw new Error(`job ${id} still ${j.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * TPM/NOPM of a TPROC-C run whose TPM is the engine's server-wide counter (HammerDB's way):
 * new orders are ~43-45% of the mix, so TPM/NOPM lies in [min, 3.5) on a server that ran
 * only this workload. The quiet sections (scripts/test-quiet.mjs) keep the other tests off
 * the server, but not a process outside the suite (another session's benchmark, a second
 * checkout's tests). When the run's own foreign-load check (validity.ts) saw another
 * workload, the upper bound is not the code's to meet: the test then asserts that the
 * product flagged it, and that the counter still holds this run's transactions.
 */
export function expectTpmOverNopm(result: unknown, min: number): void {
  const res = result as { tpm: number; nopm: number; validity?: { checks: Array<{ id: string; status: string; detail: string }> } };
  const ratio = res.tpm / res.nopm;
  expect(ratio).toBeGreaterThan(min);
  const foreign = res.validity?.checks.find((c) => c.id === 'foreign-load');
  if (foreign?.status === 'warn' && /another workload was on the server/.test(foreign.detail)) {
    console.log(`[foreign load during the run: TPM/NOPM ${ratio.toFixed(2)} not bounded above] ${foreign.detail}`);
    return;
  }
  expect(ratio).toBeLessThan(3.5);
}
