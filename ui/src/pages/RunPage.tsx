import { useEffect, useState, type FormEvent } from 'react';
import type { JobCreate } from '@sledge/protocol';
import { ENGINE_DISPLAY, workloadDef } from '@sledge/protocol';
import { api, type JobCreateBody } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import { Field } from '../components/Field.js';
import { WorkloadPicker } from '../components/WorkloadPicker.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { JobSlot } from '../components/JobSlot.js';
import { PlacementEditor } from '../components/PlacementEditor.js';
import { EMPTY_THRESHOLDS, ThresholdsEditor, draftOf, thresholdKeys, thresholdsBody, toRowErrors, type ThresholdsDraft } from '../components/ThresholdsEditor.js';
import { toFormValue } from '../forms/fields.js';
import { labelsOf, precheckJob } from '../forms/errors.js';
import { useApiErrors } from '../forms/useApiErrors.js';
import { useLiveJob } from '../live/connection.js';
import { isTerminalStatus, type LiveJob } from '../live/jobState.js';
import { Link, setSearch, useLocation } from '../router.js';
import { useReplicas } from '../state/replicas.js';
import { useWorkbench } from '../state/workbench.js';
import { LOCAL_PLACEMENT, placementBody, placementOf, placementProblem, placementText } from '../util/replicas.js';
import { parseVuSequence, sequenceBodies, startVuSequence, VU_SEQUENCE_FIELD } from '../forms/vu-sequence.js';
import { VuSequenceField, VuSequenceStatus } from '../components/VuSequence.js';
import { DEFAULT_WORKLOAD, workloadOf } from '../workloads/index.js';
import { bodyOptions, optionKey } from '../workloads/body.js';

/** How often the Run form re-reads the replicas (readiness, CPU) while it is open. */
const REPLICAS_REFRESH_MS = 3000;

/** The run's VUs as typed, when a whole number (the placement's sum is checked against it). */
const runVusOf = (v: unknown): number | undefined => {
  const n = Number(String(v ?? '').trim());
  return String(v ?? '').trim() !== '' && Number.isInteger(n) && n >= 0 ? n : undefined;
};

/** The running (or last) job's settings on one line, in place of the form while it runs. */
function RunSummary({ live, onEdit, onStart, busy }: { live: LiveJob; onEdit: () => void; onStart: () => void; busy: boolean }) {
  const { job } = live;
  const active = !isTerminalStatus(job.status);
  const where = placementText(placementOf(job.config));
  const parts = [`${ENGINE_DISPLAY[job.engine]}${job.engineVersion ? ` ${job.engineVersion}` : ''}`, ...workloadOf(job).summary(job, live), ...(where ? [where] : [])];
  return (
    <section className="card run-summary" aria-label="Run settings" data-testid="run-summary">
      <p className="run-summary-text">
        <span className="muted">{active ? 'Running' : 'Last run'}:</span> {parts.join(' · ')}
        {job.label && <strong className="job-label"> {job.label}</strong>}
      </p>
      <div className="actions">
        <button type="button" onClick={onEdit} aria-expanded={false} aria-controls="run-form" data-testid="edit-run-settings">
          Edit settings
        </button>
        {!active && (
          <button type="button" className="primary" onClick={onStart} disabled={busy} data-testid="start-run-again">
            {busy ? 'Submitting…' : 'Start again'}
          </button>
        )}
      </div>
    </section>
  );
}

/** Driver settings (HammerDB's Driver Options), Start/Stop, and the live run. */
export function RunPage() {
  const wb = useWorkbench();
  const errs = useApiErrors();
  const { search } = useLocation();
  const [busy, setBusy] = useState(false);
  const [advanced, setAdvanced] = useState(false);
  const [thresholds, setThresholds] = useState<ThresholdsDraft>(EMPTY_THRESHOLDS);
  // metrics.ashScope: ASH samples the target database's sessions unless the run asks for the whole server.
  const [ashServer, setAshServer] = useState(false);
  const placement = wb.state.placement ?? LOCAL_PLACEMENT;
  // Scale-out: "Where VUs run" shows when this server is on NATS and the workload's VUs can run on replicas.
  const replicas = useReplicas(REPLICAS_REFRESH_MS, { whenOff: false });
  const replicaList = replicas.data?.enabled ? replicas.data : undefined;
  const placeable = replicaList !== undefined && workloadDef(wb.workload.id)?.replicas === true;
  const { form, name: workloadName, RunOptions } = wb.workload;
  const profileId = wb.state.profileId;
  const runId = wb.jobFor('run');
  const view = useLiveJob(runId);
  const live = view.state && view.state.job.id === runId ? view.state : null;
  const active = live !== null && !isTerminalStatus(live.job.status);
  // A VU sequence (autopilot): its text, and once launched its profile and runs; the page follows each run in turn.
  const [vuSequence, setVuSequence] = useState('');
  const [sequence, setSequence] = useState<{ profileId: number; jobIds: string[] }>();
  const ended = live !== null && isTerminalStatus(live.job.status);
  useEffect(() => {
    if (!sequence || !ended || !runId) return;
    const next = sequence.jobIds[sequence.jobIds.indexOf(runId) + 1];
    if (next && sequence.jobIds.includes(runId)) wb.setJob('run', next);
  }, [sequence, ended, runId, wb]);
  const sequenceOffered = form.runFields.includes('vus');
  // While the page's run is live the form folds into a one-line summary, so the charts are in view; it
  // stays folded when that run ends (no jump under the reader) until "Edit settings" opens it.
  const [foldedFor, setFoldedFor] = useState<string>();
  const [openFor, setOpenFor] = useState<string>();
  useEffect(() => {
    if (active && runId) setFoldedFor(runId);
  }, [active, runId]);
  const hasErrors = errs.general !== undefined || Object.keys(errs.fields).length > 0;
  const folded = runId !== undefined && foldedFor === runId && openFor !== runId && !hasErrors && !view.error;
  const loadedFrom = search.get('from');
  // "Edit and run" of a job: its thresholds and baseline come with its settings.
  useEffect(() => {
    if (!loadedFrom) return;
    let live = true;
    api.job(loadedFrom).then(
      (j) => {
        if (!live) return;
        setThresholds(draftOf(j.config));
        setAshServer((j.config as { metrics?: { ashScope?: string } }).metrics?.ashScope === 'server');
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [loadedFrom]);
  const driverFields = wb.targetFields.filter((f) => f.group === 'driver');
  const opt = (n: string) => optionKey(form, n);
  const shownKeys = [...form.runFields.map(opt), ...driverFields.map((f) => `target.${f.name}`), 'profileId', 'label', VU_SEQUENCE_FIELD, ...thresholdKeys(thresholds), ...(placeable ? ['placement'] : [])];
  const keys = [...shownKeys, ...form.buildFields.map(opt), ...wb.schemaFields.map((f) => opt(`schema.${f.name}`)), ...wb.targetFields.map((f) => `target.${f.name}`)];
  const labels: Record<string, string> = { ...form.labels, ...labelsOf(opt('schema'), wb.schemaFields), ...labelsOf('target', wb.targetFields), profileId: 'Performance profile id', label: 'Label', [VU_SEQUENCE_FIELD]: 'VU sequence', 'placement.replicas': 'Chosen replicas', 'placement.vus': 'VUs per replica' };

  const start = async (e?: FormEvent) => {
    e?.preventDefault();
    errs.clear();
    setBusy(true);
    const judged = thresholdsBody(thresholds);
    try {
      const body = { type: 'run', target: wb.target() as JobCreate['target'], ...bodyOptions(form, wb.options(form.runFields)) } as JobCreateBody;
      if (wb.workload.id !== DEFAULT_WORKLOAD) (body as { workload?: string }).workload = wb.workload.id;
      // Out-of-range values are shown at their fields, all at once, without a round trip.
      const bad = precheckJob(body, form);
      if (bad) throw bad;
      if (placeable) {
        const problem = placementProblem(placement);
        if (problem) throw new ApiError('SLEDGE_E_VALIDATION', problem.message, 400, problem.field);
        const where = placementBody(placement);
        if (where) (body as { placement?: typeof where }).placement = where;
      }
      if (wb.state.label.trim()) body.label = wb.state.label.trim();
      if (ashServer) (body as { metrics?: Record<string, unknown> }).metrics = { ashScope: 'server' };
      const configId = wb.configId();
      if (configId !== undefined) body.configId = configId;
      if (profileId.trim()) body.profileId = (Number.isFinite(Number(profileId)) ? Number(profileId) : profileId) as number;
      Object.assign(body, judged.fields);
      const counts = sequenceOffered ? parseVuSequence(vuSequence, form.field('vus').maximum ?? Number.MAX_SAFE_INTEGER) : null;
      if (counts instanceof ApiError) throw counts;
      if (counts) {
        // Every run of the sequence is checked before any is sent.
        for (const b of sequenceBodies(body, form.key, counts, 1)) {
          const bad2 = precheckJob(b, form);
          if (bad2) throw bad2;
        }
        const typed = body.profileId === undefined ? undefined : Number(body.profileId);
        if (typed !== undefined && !(Number.isInteger(typed) && typed >= 1)) throw new ApiError('SLEDGE_E_VALIDATION', 'Performance profile id: a sequence needs a whole number of 1 or more, or none for the next free id', 400, 'profileId');
        const launched = await startVuSequence(api, (pid) => sequenceBodies(body, form.key, counts, pid), typed);
        setSequence(launched);
        wb.setJob('run', launched.jobIds[0]!);
        wb.setLabel('');
        setFoldedFor(launched.jobIds[0]!);
        if (loadedFrom) setSearch({ from: undefined });
        return;
      }
      setSequence(undefined);
      const job = await api.createJob(body);
      wb.setJob('run', job.id);
      // The label named this run: the next one starts unlabelled unless one is typed (or loaded by "Edit and run").
      wb.setLabel('');
      setFoldedFor(job.id);
      if (loadedFrom) setSearch({ from: undefined });
    } catch (err) {
      errs.show(toRowErrors(err, judged.rowOf), keys, labels);
      // The form stays open while the error is fixed (clearing it field by field must not fold it again).
      if (runId) setOpenFor(runId);
    } finally {
      setBusy(false);
    }
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
  const advancedKeys = [...form.runAdvancedFields.map(opt), ...driverFields.map((f) => `target.${f.name}`), 'profileId', 'label', VU_SEQUENCE_FIELD];
  const advancedError = Object.keys(errs.fields).some((k) => advancedKeys.includes(k));

  // `:abort` needs a measured window: the workload says whether these options have one (protocol's definition).
  const measuredWindow = workloadDef(wb.workload.id)?.measuredWindow;
  const abortable = measuredWindow ? measuredWindow(wb.options(form.runFields)) : `${workloadName} runs have no measured window`;
  const secretsEmpty = wb.targetFields.filter((f) => f.secret && wb.targetValues[f.name] === '').map((f) => f.title);

  return (
    <div className="page">
      <h2>Run</h2>
      {loadedFrom && !folded && (
        <p className="notice" role="status" data-testid="loaded-from">
          Settings of job <Link to={`/jobs/${loadedFrom}`}>{loadedFrom}</Link> loaded: change what you want and Start.
          {secretsEmpty.length > 0 && <> Jobs do not store secrets: {secretsEmpty.join(', ')} {secretsEmpty.length === 1 ? 'is' : 'are'} empty (<Link to="/targets">Target page</Link>).</>}{' '}
          <button type="button" className="linkish" onClick={() => setSearch({ from: undefined })}>
            Dismiss
          </button>
        </p>
      )}
      {folded && live && <RunSummary live={live} busy={busy} onEdit={() => setOpenFor(runId)} onStart={() => void start()} />}
      <form className="card" id="run-form" hidden={folded} onSubmit={start} noValidate aria-labelledby="run-h">
        <h3 id="run-h">
          {workloadName} driver on {ENGINE_DISPLAY[wb.state.engine]}
        </h3>
        <WorkloadPicker />
        <RunOptions engine={wb.state.engine} field={field} values={wb.state.options} setValue={setValue} errors={errs.fields} clearError={(n) => errs.clear(opt(n))} />
        {placeable && (
          <PlacementEditor
            value={placement}
            onChange={(d) => {
              wb.setPlacement(d);
              errs.clear('placement');
            }}
            list={replicaList}
            engine={wb.state.engine}
            runVus={runVusOf(wb.state.options['vus'])}
            error={errs.fields['placement']}
          />
        )}
        <details open={advanced || advancedError} onToggle={(e) => setAdvanced(e.currentTarget.open)}>
          <summary>Advanced driver options</summary>
          <div className="form-grid">
            {form.runAdvancedFields.map((n) => field(n))}
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
              <input id="run-profile" inputMode="numeric" value={profileId} onChange={(e) => wb.setProfileId(e.target.value)} aria-describedby="run-profile-help" />
              <p className="help" id="run-profile-help">
                Runs sharing a profile id form a VU sweep, plotted on the Compare page.
              </p>
              {errs.fields['profileId'] && (
                <p className="field-error" role="alert">
                  {errs.fields['profileId']}
                </p>
              )}
            </div>
            {sequenceOffered && (
              <VuSequenceField
                value={vuSequence}
                onChange={(v) => {
                  setVuSequence(v);
                  errs.clear(VU_SEQUENCE_FIELD);
                }}
                error={errs.fields[VU_SEQUENCE_FIELD]}
              />
            )}
            <div className="field">
              <label htmlFor="run-label">Label (optional)</label>
              <input id="run-label" value={wb.state.label} maxLength={200} onChange={(e) => wb.setLabel(e.target.value)} />
            </div>
            <div className="field field-check">
              <label htmlFor="run-ash-scope">
                <input id="run-ash-scope" type="checkbox" checked={ashServer} onChange={(e) => setAshServer(e.target.checked)} data-testid="ash-scope-server" aria-describedby="run-ash-scope-help" />
                <span>Active session history of the whole server</span>
              </label>
              <p className="help" id="run-ash-scope-help">
                Off: ASH samples only the target database&apos;s sessions. On: every session of the server, other databases&apos; SQL text included (metrics.ashScope server);
                share links and HTML reports still show only the target database&apos;s.
              </p>
            </div>
          </div>
        </details>
        <ThresholdsEditor
          abortable={abortable}
          value={thresholds}
          onChange={(d) => {
            setThresholds(d);
            for (const k of thresholdKeys(d)) errs.clear(k);
          }}
          errors={errs.fields}
        />
        {misplaced.map(([k, m]) => (
          <p key={k} className="field-error" role="alert">
            {labels[k] ?? k}: {m} <Link to={k.startsWith(`${form.key}.`) ? '/schema' : '/targets'}>Fix it</Link>
          </p>
        ))}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy} data-testid="start-run">
            {busy ? 'Submitting…' : sequenceOffered && vuSequence.trim() ? 'Start sequence' : 'Start'}
          </button>
          {wb.state.label.trim() && (
            <span className="muted small" data-testid="run-label-note">
              labelled <strong>{wb.state.label.trim()}</strong>{' '}
              <button type="button" className="linkish small" onClick={() => wb.setLabel('')}>
                clear
              </button>
            </span>
          )}
        </div>
        <ErrorBox error={errs.general} />
      </form>
      {sequence && <VuSequenceStatus profileId={sequence.profileId} jobIds={sequence.jobIds} shown={runId} />}
      <JobSlot jobId={runId} empty={`No ${ENGINE_DISPLAY[wb.state.engine]} run started from this page yet.`} />
    </div>
  );
}
