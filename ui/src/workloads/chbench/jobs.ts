import type { Job } from '@sledge/protocol';
import { engineDoes } from '../../state/capabilities.js';
import type { Capabilities } from '@sledge/protocol';
import { configSummary as tproccSummary } from '../tprocc/jobs.js';
import { jobAnalytic, jobStreams } from './result.js';

/**
 * Whether the engine applies a degree of parallelism to the analytic
 * queries: its driver says so for CH-benCHmark or for TPROC-H (both run on
 * the engine's query session, which sets the DOP). False before the
 * capabilities have loaded.
 */
export function chbenchDop(engine: string, caps?: Capabilities): boolean {
  return engineDoes(engine, 'chbench', 'dop', caps) || engineDoes(engine, 'tproch', 'dop', caps);
}

/**
 * Whether the engine runs CH-benCHmark's analytic streams alone, without
 * TPROC-C's transactions (DuckDB): capabilities list CH-benCHmark as offered
 * in part (`limited.chbench`, the server's rule: TPROC-C hooks without
 * transactions), and its runs take tprocc.vus 0. False before the
 * capabilities have loaded.
 */
export function chbenchAnalyticOnly(engine: string, caps: Capabilities | undefined): boolean {
  return caps?.engines.find((e) => e.engine === engine)?.limited?.['chbench'] !== undefined;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** TPROC-C's words for the job, and a run's analytic streams (DOP where it applies, the query timeout). */
export function configSummary(job: Job, warehouses?: number): string[] {
  const parts = tproccSummary(job, warehouses);
  if (job.type !== 'run') return parts;
  const a = jobAnalytic(job);
  const streams = jobStreams(job);
  parts.push(streams === 0 ? 'no analytic streams (transactions alone)' : plural(streams, 'analytic stream'));
  if (streams > 0 && typeof a['dop'] === 'number' && chbenchDop(job.engine)) parts.push(`DOP ${a['dop']}`);
  if (streams > 0 && typeof a['queryTimeoutSec'] === 'number' && a['queryTimeoutSec'] > 0) parts.push(`query timeout ${a['queryTimeoutSec']} s`);
  return parts;
}
