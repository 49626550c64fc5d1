import { isTerminal } from '@sledge/protocol';
import { failure, success, type Outcome, type Pairs } from './reply.js';
import type { RunCtx } from './lifecycle.js';
import { vuJob } from './vus.js';

/**
 * runtimer and waittocomplete: HammerDB's CLI keeps its main thread alive
 * while VUs run (runtimer N: until the VUs complete or N seconds pass;
 * waittocomplete: until they complete). Here they are long requests that
 * answer when the session's VUs' job has ended, bounded, and end early when
 * the client goes away.
 */

/** The longest runtimer, and waittocomplete's bound when the job's length is not known (a build, TPROC-H, the test driver). */
export const MAX_WAIT_SECONDS = 24 * 3600;
const POLL_MS = 250;

/** Whether the session's VUs have finished: their job has ended (or there is none). */
function complete(ctx: RunCtx): boolean {
  const job = vuJob(ctx.s, ctx.store);
  return job === undefined || isTerminal(job.status);
}

async function waitUntil(ctx: RunCtx, seconds: number, aborted: () => boolean): Promise<number> {
  const start = Date.now();
  while (!complete(ctx) && !aborted() && Date.now() - start < seconds * 1000) await new Promise((r) => setTimeout(r, POLL_MS));
  return Math.round((Date.now() - start) / 1000);
}

/** POST /runtimer {"seconds":N}: waits until the VUs complete or N seconds pass (HammerDB CLI's runtimer). */
export async function runtimer(ctx: RunCtx, pairs: Pairs, aborted: () => boolean = () => false): Promise<Outcome> {
  if (pairs.length !== 1 || pairs[0]![0] !== 'seconds') return failure('Usage: runtimer {"seconds":"N"}: wait until the virtual users complete or N seconds pass');
  const raw = pairs[0]![1].trim();
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_WAIT_SECONDS) return failure(`runtimer requires a whole number of seconds from 1 to ${MAX_WAIT_SECONDS}`);
  const elapsed = await waitUntil(ctx, Number(raw), aborted);
  return success(`runtimer returned after ${elapsed} seconds`);
}

/**
 * The longest a timed TPROC-C run of the session needs: rampup + duration
 * plus the generic commandline keepalive_margin, as HammerDB's CLI keeps
 * alive for; MAX_WAIT_SECONDS otherwise.
 */
export function waitBound(ctx: RunCtx): number {
  const { s } = ctx;
  const job = vuJob(s, ctx.store);
  const t = (job?.config as { tprocc?: { driver?: string; rampup?: number; duration?: number } } | undefined)?.tprocc;
  if (!job || job.type !== 'run' || !t || t.driver === 'test' || t.rampup === undefined || t.duration === undefined) return MAX_WAIT_SECONDS;
  const margin = Number(s.generic['commandline']?.['keepalive_margin'] ?? '60');
  const started = job.startedAt ?? job.createdAt;
  const left = (Number(t.rampup) + Number(t.duration)) * 60 + margin - (Date.now() - Date.parse(started)) / 1000;
  return Math.max(1, Math.min(MAX_WAIT_SECONDS, Math.ceil(left)));
}

/** POST /waittocomplete: waits until the session's VUs complete (HammerDB's vucomplete), bounded by waitBound. */
export async function waittocomplete(ctx: RunCtx, aborted: () => boolean = () => false): Promise<Outcome> {
  const job = vuJob(ctx.s, ctx.store);
  if (!job) return success('No Virtual Users running: nothing to wait for');
  const bound = waitBound(ctx);
  const elapsed = await waitUntil(ctx, bound, aborted);
  const now = ctx.store.getJob(job.id);
  if (now && !isTerminal(now.status)) {
    return failure(`waittocomplete returned after ${elapsed} seconds: job ${job.id} is still ${now.status} (past rampup + duration + keepalive_margin); stop it with vudestroy`);
  }
  return success(`waittocomplete returned after ${elapsed} seconds: all Virtual Users complete (JOBID=${job.id} ${now?.status ?? 'deleted'})`);
}
