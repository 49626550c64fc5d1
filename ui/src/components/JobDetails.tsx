import type { Job } from '@sledge/protocol';
import { ENGINE_DISPLAY, workloadDef } from '@sledge/protocol';
import { fmtDuration, localDateTime } from '../util/format.js';
import { jobElapsedMs } from '../util/jobs.js';
import { placementOf, placementText } from '../util/replicas.js';

/** Flatten a stored config into dotted keys (target.host, tprocc.mix.payment, ...). */
export function flattenConfig(v: unknown, prefix = ''): [string, string][] {
  if (v === null || v === undefined) return prefix ? [[prefix, '']] : [];
  if (typeof v !== 'object' || Array.isArray(v)) return [[prefix, Array.isArray(v) ? JSON.stringify(v) : String(v)]];
  const out: [string, string][] = [];
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out.push(...flattenConfig(x, prefix ? `${prefix}.${k}` : k));
  return out;
}

/** Dates, versions and the configuration as stored (secrets were redacted when the job was stored). */
export function JobDetails({ job }: { job: Job }) {
  const rows = flattenConfig(job.config);
  const placement = placementText(placementOf(job.config));
  return (
    <div className="two-col">
      <section className="card" aria-labelledby="job-facts-h">
        <h3 id="job-facts-h">Job</h3>
        <dl className="facts">
          <dt>Workload</dt>
          <dd>{workloadDef(job.workload)?.display ?? job.workload}</dd>
          <dt>Database</dt>
          <dd data-testid="engine-version">
            {ENGINE_DISPLAY[job.engine]} {job.engineVersion ?? <span className="muted">(version not recorded)</span>}
          </dd>
          <dt>Client</dt>
          <dd data-testid="client-version">{job.clientVersion}</dd>
          <dt>Created</dt>
          <dd>{localDateTime(job.createdAt)}</dd>
          <dt>Started</dt>
          <dd>{localDateTime(job.startedAt)}</dd>
          <dt>Ended</dt>
          <dd>{localDateTime(job.endedAt)}</dd>
          <dt>Elapsed</dt>
          <dd>{fmtDuration(jobElapsedMs(job, Date.now()))}</dd>
          {placement && (
            <>
              <dt>VUs ran</dt>
              <dd data-testid="job-placement">{placement}</dd>
            </>
          )}
          <dt>Seed</dt>
          <dd className="mono">{job.seed}</dd>
          {job.profileId > 0 && (
            <>
              <dt>Profile</dt>
              <dd>{job.profileId}</dd>
            </>
          )}
          {job.label && (
            <>
              <dt>Label</dt>
              <dd>{job.label}</dd>
            </>
          )}
        </dl>
      </section>
      <section className="card" aria-labelledby="job-config-h">
        <h3 id="job-config-h">Configuration</h3>
        <div className="config-table">
          <table className="data compact" data-testid="job-config">
            <tbody>
              {rows.map(([k, v]) => (
                <tr key={k}>
                  <th scope="row" className="mono">
                    {k}
                  </th>
                  <td className="mono">{v}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
