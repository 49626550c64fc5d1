import { useState, type FormEvent } from 'react';
import type { JobCreate, JobType } from '@sledge/protocol';
import { ENGINE_DISPLAY } from '@sledge/protocol';
import { api, type JobCreateBody } from '../api/endpoints.js';
import { Field } from '../components/Field.js';
import { WorkloadPicker } from '../components/WorkloadPicker.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { JobSlot } from '../components/JobSlot.js';
import { toFormValue } from '../forms/fields.js';
import { labelsOf, precheckJob } from '../forms/errors.js';
import { useApiErrors } from '../forms/useApiErrors.js';
import { Link } from '../router.js';
import { useWorkbench } from '../state/workbench.js';
import { DEFAULT_WORKLOAD } from '../workloads/registry.js';

/** Build, check and delete the workload's schema; live build progress and output. */
export function SchemaPage() {
  const wb = useWorkbench();
  const errs = useApiErrors();
  const [busy, setBusy] = useState<JobType | null>(null);
  const { schemaFields } = wb;
  const { form, name: workloadName, BuildOptions } = wb.workload;
  const opt = (n: string) => `${form.key}.${n}`;
  // Schema options are the workload's: `tprocc.schema.partition`.
  const schemaKey = (n: string) => `${form.key}.schema.${n}`;
  const keys = [...form.buildFields.map(opt), ...schemaFields.map((f) => schemaKey(f.name)), ...wb.targetFields.map((f) => `target.${f.name}`)];
  const shownKeys = [...form.buildFields.map(opt), ...schemaFields.map((f) => schemaKey(f.name))];
  const labels = { ...form.labels, ...labelsOf(`${form.key}.schema`, schemaFields), ...labelsOf('target', wb.targetFields) };

  const submit = async (type: JobType) => {
    errs.clear();
    setBusy(type);
    try {
      const body: JobCreateBody = { type, target: wb.target() as JobCreate['target'] };
      if (wb.workload.id !== DEFAULT_WORKLOAD) (body as { workload?: string }).workload = wb.workload.id;
      const configId = wb.configId();
      if (configId !== undefined) body.configId = configId;
      (body as unknown as Record<string, unknown>)[form.key] = type === 'delete' ? wb.options([]) : wb.options(form.buildFields);
      if (wb.state.label.trim()) body.label = wb.state.label.trim();
      // Out-of-range values are shown at their fields, all at once, without a round trip.
      const bad = precheckJob(body, form);
      if (bad) throw bad;
      const job = await api.createJob(body);
      wb.setJob('schema', job.id);
      // The label named this job: the next one (here or on the Run page) starts unlabelled.
      wb.setLabel('');
    } catch (e) {
      errs.show(e, keys, labels);
    } finally {
      setBusy(null);
    }
  };
  const onBuild = (e: FormEvent) => {
    e.preventDefault();
    void submit('build');
  };
  const field = (n: string, hint?: string) => {
    const spec = form.field(n);
    const key = opt(n);
    return (
      <Field
        key={key}
        spec={spec}
        fieldKey={key}
        value={wb.state.options[n] ?? toFormValue(spec, spec.default)}
        onChange={(v) => {
          wb.setOptionValue(n, v);
          errs.clear(key);
        }}
        error={errs.fields[key]}
        hint={hint}
      />
    );
  };
  const setValue = (n: string, v: string | boolean) => {
    wb.setOptionValue(n, v);
    errs.clear(opt(n));
  };
  const misplaced = Object.entries(errs.fields).filter(([k]) => !shownKeys.includes(k));
  const engineName = ENGINE_DISPLAY[wb.state.engine];
  const createsDb = wb.capabilities?.engines.find((e) => e.engine === wb.state.engine)?.features?.createsDatabase === true;

  return (
    <div className="page">
      <h2>Schema</h2>
      <form className="card" onSubmit={onBuild} noValidate aria-labelledby="schema-h">
        <h3 id="schema-h">
          {workloadName} schema on {engineName}
        </h3>
        <WorkloadPicker />
        <div className="form-grid">
          {BuildOptions ? <BuildOptions engine={wb.state.engine} field={field} values={wb.state.options} setValue={setValue} /> : form.buildFields.map((n) => field(n))}
          {schemaFields.map((f) => {
            const key = schemaKey(f.name);
            return (
              <Field
                key={`${wb.state.engine}.${key}`}
                spec={f}
                fieldKey={key}
                value={wb.schemaValues[f.name]!}
                onChange={(v) => {
                  wb.setSchemaValue(f.name, v);
                  errs.clear(key);
                }}
                error={errs.fields[key]}
              />
            );
          })}
          <div className="field">
            <label htmlFor="job-label">Label (optional)</label>
            <input id="job-label" value={wb.state.label} maxLength={200} onChange={(e) => wb.setLabel(e.target.value)} />
          </div>
        </div>
        {misplaced.map(([k, m]) => (
          <p key={k} className="field-error" role="alert">
            {labels[k] ?? k}: {m} <Link to="/targets">Fix it on the Target page</Link>
          </p>
        ))}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy !== null} data-testid="build-schema">
            {busy === 'build' ? 'Submitting…' : 'Build'}
          </button>
          <button type="button" disabled={busy !== null} onClick={() => void submit('check')} data-testid="check-schema">
            Check
          </button>
          <ConfirmButton
            title={`Delete the ${workloadName} schema`}
            message={
              <p>
                Drop every {workloadName} table{createsDb ? ', routine and the database/user this target names' : ''} on {engineName}? This cannot be undone.
              </p>
            }
            confirmLabel="Delete schema"
            className="danger"
            disabled={busy !== null}
            testId="delete-schema"
            onConfirm={() => submit('delete')}
          >
            Delete
          </ConfirmButton>
          <Link to="/run" className="button">
            Next: run →
          </Link>
        </div>
        <ErrorBox error={errs.general} />
      </form>
      <JobSlot key={wb.state.engine} jobId={wb.jobFor('schema')} empty={`No ${engineName} schema job started from this page yet.`} />
    </div>
  );
}
