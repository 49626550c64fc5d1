import { readFileSync } from 'node:fs';
import Schema from 'typebox/schema';

/**
 * HammerDB 6's result leaderboard check of a `hammerdb-job-report-v1`
 * artifact (fixtures/hammerdb-results/README.md): its JSON Schema (draft
 * 2020-12, checked with TypeBox's JSON Schema validator) and the rules its
 * validator adds, which the schema calls the source of truth. The path rule
 * (results/<benchmark>/<database>/<yyyy>/<mm>/<jobid>.json) is about where a
 * submission is filed, not about the document, and is left out.
 */

const schema = JSON.parse(readFileSync(new URL('./fixtures/hammerdb-results/hammerdb-job-report-v1.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
/** 'YYYY-MM-DD HH:MM:SS' or the ISO 'T' form, a real date and time. */
function parsesAsTimestamp(v: unknown): boolean {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(v) : null;
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && s < 60;
}

/** Every reason the leaderboard would refuse the artifact ([] when it accepts it). */
export function leaderboardErrors(artifact: unknown): string[] {
  const [, errors] = Schema.Errors(schema as never, artifact);
  const out = errors.map((e) => `schema: ${e.instancePath || '/'} ${e.message}`);
  if (!isObject(artifact)) return out;
  const disclaimer = artifact['disclaimer'];
  if (!isObject(disclaimer) || disclaimer['audited'] !== false) out.push('disclaimer.audited must be false');
  const job = artifact['job'];
  if (!isObject(job)) return out;
  for (const f of ['jobid', 'hdb_version', 'database', 'database_display', 'benchmark', 'timestamp']) if (typeof job[f] !== 'string' || job[f] === '') out.push(`job.${f} is required and must be non-empty`);
  if (!parsesAsTimestamp(job['timestamp'])) out.push('job.timestamp must parse as YYYY-MM-DD HH:MM:SS (or the ISO T form)');
  const config = artifact['benchmark_config'];
  const result = artifact['result'];
  if (job['benchmark'] === 'TPROC-C') {
    if (isObject(result)) for (const f of ['nopm', 'tpm']) if (!isNumber(result[f])) out.push(`result.${f} must be a number for TPROC-C`);
    if (isObject(config)) for (const f of ['warehouses', 'virtual_users', 'rampup_minutes', 'duration_minutes']) if (!(f in config)) out.push(`benchmark_config.${f} must exist for TPROC-C`);
  }
  return out;
}
