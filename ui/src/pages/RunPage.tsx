import { useState, type FormEvent } from 'react';
import type { JobCreate } from '@sledge/protocol';
import { ENGINE_DISPLAY } from '@sledge/protocol';
import { api, type JobCreateBody } from '../api/endpoints.js';
import { Field } from '../components/Field.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { JobSlot } from '../components/JobSlot.js';
import { toFormValue } from '../forms/fields.js';
import { BUILD_FIELDS, MIX_FIELDS, RUN_ADVANCED_FIELDS, RUN_FIELDS, collectTprocc, tprocc } from '../forms/tprocc.js';
import { useApiErrors } from '../forms/useApiErrors.js';
import { Link } from '../router.js';
import { useWorkbench } from '../state/workbench.js';

const RUN_OPTION_NAMES = [...RUN_FIELDS, ...RUN_ADVANCED_FIELDS, ...MIX_FIELDS];

/** Driver settings (HammerDB's Driver Options), Start/Stop, and the live run. */
export function RunPage() {
  const wb = useWorkbench();
  const errs = useApiErrors();
  const [busy, setBusy] = useState(false);
  const [profileId, setProfileId] = useState('');
  const [advanced, setAdvanced] = useState(false);
  const driverFields = wb.targetFields.filter((f) => f.group === 'driver');
  const shownKeys = [...RUN_OPTION_NAMES.map((n) => `tprocc.${n}`), ...driverFields.map((f) => `target.${f.name}`), 'profileId', 'label'];
  const keys = [...shownKeys, ...BUILD_FIELDS.map((n) => `tprocc.${n}`), ...wb.targetFields.map((f) => `target.${f.name}`)];

  const start = async (e: FormEvent) => {
    e.preventDefault();
    errs.clear();
    setBusy(true);
    try {
      const body: JobCreateBody = {
        type: 'run',
        target: wb.target() as JobCreate['target'],
        tprocc: collectTprocc(wb.state.tprocc, RUN_OPTION_NAMES) as JobCreate['tprocc'],
      };
      if (wb.state.label.trim()) body.label = wb.state.label.trim();
      const configId = wb.configId();
      if (configId !== undefined) body.configId = configId;
      if (profileId.trim()) body.profileId = (Number.isFinite(Number(profileId)) ? Number(profileId) : profileId) as number;
      const job = await api.createJob(body);
      wb.setJob('run', job.id);
    } catch (err) {
      errs.show(err, keys);
    } finally {
      setBusy(false);
    }
  };

  const field = (n: string) => {
    const spec = tprocc(n);
    const key = `tprocc.${n}`;
    return (
      <Field
        key={key}
        spec={spec}
        fieldKey={key}
        value={wb.state.tprocc[n] ?? toFormValue(spec, spec.default)}
        onChange={(v) => {
          wb.setTproccValue(n, v);
          errs.clear(key);
        }}
        error={errs.fields[key]}
      />
    );
  };
  const misplaced = Object.entries(errs.fields).filter(([k]) => !shownKeys.includes(k));
  const advancedKeys = [...RUN_ADVANCED_FIELDS.map((n) => `tprocc.${n}`), ...driverFields.map((f) => `target.${f.name}`), 'profileId', 'label'];
  const advancedError = Object.keys(errs.fields).some((k) => advancedKeys.includes(k));

  return (
    <div className="page">
      <h2>Run</h2>
      <form className="card" onSubmit={start} noValidate aria-labelledby="run-h">
        <h3 id="run-h">TPROC-C driver on {ENGINE_DISPLAY[wb.state.engine]}</h3>
        <div className="form-grid">{RUN_FIELDS.map(field)}</div>
        <fieldset className="mix">
          <legend>Transaction mix weights</legend>
          <p className="help">Relative weights; HammerDB's mix is 10/10/1/1/1 (new order, payment, delivery, stock level, order status).</p>
          <div className="form-grid five">{MIX_FIELDS.map(field)}</div>
        </fieldset>
        <details open={advanced || advancedError} onToggle={(e) => setAdvanced(e.currentTarget.open)}>
          <summary>Advanced driver options</summary>
          <div className="form-grid">
            {RUN_ADVANCED_FIELDS.map(field)}
            {driverFields.map((f) => {
              const key = `target.${f.name}`;
              return (
                <Field
                  key={`${wb.state.engine}.${key}`}
                  spec={f}
                  fieldKey={key}
                  value={wb.targetValues[f.name]}
                  onChange={(v) => {
                    wb.setTargetValue(f.name, v);
                    errs.clear(key);
                  }}
                  error={errs.fields[key]}
                />
              );
            })}
            <div className={`field${errs.fields['profileId'] ? ' has-error' : ''}`}>
              <label htmlFor="run-profile">Performance profile id (optional)</label>
              <input id="run-profile" inputMode="numeric" value={profileId} onChange={(e) => setProfileId(e.target.value)} aria-describedby="run-profile-help" />
              <p className="help" id="run-profile-help">
                Runs sharing a profile id form a VU sweep, plotted on the Compare page.
              </p>
              {errs.fields['profileId'] && (
                <p className="field-error" role="alert">
                  {errs.fields['profileId']}
                </p>
              )}
            </div>
            <div className="field">
              <label htmlFor="run-label">Label (optional)</label>
              <input id="run-label" value={wb.state.label} maxLength={200} onChange={(e) => wb.setLabel(e.target.value)} />
            </div>
          </div>
        </details>
        {misplaced.map(([k, m]) => (
          <p key={k} className="field-error" role="alert">
            {k}: {m} <Link to={k.startsWith('tprocc.') ? '/schema' : '/targets'}>Fix it</Link>
          </p>
        ))}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy} data-testid="start-run">
            {busy ? 'Submitting…' : 'Start'}
          </button>
        </div>
        <ErrorBox error={errs.general} />
      </form>
      <JobSlot jobId={wb.state.jobs.run} empty="No run started from this page yet." />
    </div>
  );
}
