import type { AshSample, Job } from '@sledge/protocol';

/**
 * Who looks at a job's ASH: its 'owner' (REST, the job page and its live
 * stream, exports: behind the API token when one is set) or the 'public'
 * (share links, which need no token, and HTML reports, files that travel).
 */
export type AshAudience = 'owner' | 'public';

/**
 * Which stored ASH samples an audience sees (docs/security.md, "What ASH
 * shows, and to whom"). The owner sees what the job recorded. The public
 * sees the target database's sessions only:
 * - metrics.ashScope 'database' (the default): everything, the sampler read
 *   nothing else;
 * - 'server': the samples not marked `outside` (other databases' and other
 *   users' sessions, their SQL text and role names stay out);
 * - no ashScope (a job recorded before scopes existed, sampled server-wide
 *   with nothing marked): the job's own VUs only.
 * Returns null when nothing is left out.
 */
export function ashVisible(job: Pick<Job, 'config'>, audience: AshAudience): ((s: AshSample) => boolean) | null {
  if (audience === 'owner') return null;
  const scope = (job.config as { metrics?: { ashScope?: unknown } } | undefined)?.metrics?.ashScope;
  if (scope === 'database') return null;
  if (scope === 'server') return (s) => s.outside !== true;
  return (s) => s.vu !== undefined;
}
