import { useState } from 'react';
import type { Job } from '@sledge/protocol';
import { ENGINE_DISPLAY } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { navigate } from '../router.js';
import { useWorkbench } from '../state/workbench.js';
import { workloadOf } from '../workloads/registry.js';
import { editPage, missingLabel, planRerun, withSecrets } from '../util/rerun.js';
import { ConfirmButton } from './ConfirmButton.js';
import { ErrorBox } from './ErrorBox.js';

/**
 * "Run again" (the same configuration as a new job, after a confirmation that
 * says what will run; stored jobs keep no secrets, so a password the page
 * does not know for that endpoint is asked for there) and "Edit and run"
 * (the configuration loaded into the Run or Schema page's form).
 */
export function RerunActions({ job, small = false }: { job: Job; small?: boolean }) {
  const wb = useWorkbench();
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const plan = planRerun(job, { target: wb.targetOf(job.engine), configId: wb.state.engine === job.engine ? wb.state.config?.id : undefined });
  const fields = wb.schemas ? wb.schemas[job.engine]?.properties ?? {} : {};
  const page = editPage(job);
  const cls = small ? 'small' : undefined;
  const what = [ENGINE_DISPLAY[job.engine], ...workloadOf(job).summary(job)].join(' · ');
  const id = `rerun-${job.id}`;

  const start = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const created = await api.createJob(withSecrets(plan, typed));
      if (page) wb.setJob(page === '/run' ? 'run' : 'schema', created.id, job.engine, created.workload);
      setTyped({});
      navigate(`/jobs/${created.id}`);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <ConfirmButton
        title={`Run job ${job.id} again`}
        message={
          <>
            <p>
              Start a new {job.type} job now with this job&apos;s configuration
              {job.label ? (
                <>
                  {' '}
                  (<strong>{job.label}</strong>)
                </>
              ) : null}
              :
            </p>
            <p className="mono" data-testid={`${id}-summary`}>
              {what}
            </p>
            {plan.missing.length > 0 && (
              <div className="rerun-secrets">
                <p className="muted small">Jobs do not store secrets: type {plan.missing.length === 1 ? 'it' : 'them'} for this run.</p>
                {plan.missing.map((k) => (
                  <div className="field" key={k}>
                    <label htmlFor={`${id}-${k.replace(/\./g, '-')}`}>{missingLabel(plan, k, (f) => String(fields[f]?.['title'] ?? f))}</label>
                    <input id={`${id}-${k.replace(/\./g, '-')}`} type="password" autoComplete="off" value={typed[k] ?? ''} onChange={(e) => setTyped((t) => ({ ...t, [k]: e.target.value }))} />
                  </div>
                ))}
              </div>
            )}
          </>
        }
        confirmLabel="Start now"
        confirmClassName="primary"
        className={cls}
        disabled={busy}
        testId={id}
        onConfirm={start}
      >
        {busy ? 'Starting…' : 'Run again'}
      </ConfirmButton>
      {page && (
        <button
          type="button"
          className={cls}
          data-testid={`edit-${job.id}`}
          title={`Load this job's configuration into the ${page === '/run' ? 'Run' : 'Schema'} page`}
          onClick={() => {
            if (wb.loadJob(job)) navigate(`${page}?from=${job.id}`);
          }}
        >
          {small ? 'Edit' : 'Edit and run'}
        </button>
      )}
      {error && <ErrorBox error={error} title="Run again failed" />}
    </>
  );
}
