import { useState, type FormEvent } from 'react';
import { PoolEditor } from '../components/PoolEditor.js';
import type { ConnectPool, EngineId, SavedConfig, TargetTestResult } from '@sledge/protocol';
import { REDACTED, workloadDef } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import { Field } from '../components/Field.js';
import { InstallSteps } from '../components/InstallSteps.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { ActiveSessionsNow, CpuAgents } from '../components/metrics/TargetProbe.js';
import { fieldKeyFor, toFormValue, type FormValues } from '../forms/fields.js';
import { useApiErrors } from '../forms/useApiErrors.js';
import { labelsOf } from '../forms/errors.js';
import { Link } from '../router.js';
import { useResource } from '../state/resource.js';
import { useWorkbench } from '../state/workbench.js';
import { DEFAULT_WORKLOAD, workloadUi, workloadUis } from '../workloads/registry.js';
import { formOptionsOfSaved, savedOptionLabels, savedOptionsOf } from '../workloads/saved.js';

const firstLine = (s: string) => s.split('\n')[0]!.trim();
/**
 * A workload the engine runs in part, as the card's one short line: its reason's opening words,
 * up to the first parenthesis or colon ("Schema only", "Analytic streams only"); the whole
 * reason is the line's title. Two such lines fit the card's height with the others'.
 */
const limitedLabel = (what: string) => firstLine(what).split(/(?<=\.) /)[0]!.split(/ \(|:/)[0]!.replace(/\.$/, '');

/** What the connection test found of the workload's schema (TPROC-H: its scale factor; TPROC-C: its warehouses). */
function schemaLine({ workload, schema }: TargetTestResult): string {
  const name = workloadUi(workload ?? DEFAULT_WORKLOAD).name;
  if (!schema.exists) return `No ${name} schema yet: build one on the Schema page.`;
  return `${name} schema present ${schema.scaleFactor === undefined ? `with ${schema.warehouses} warehouse(s)` : `at SF ${schema.scaleFactor}`}.`;
}

/** Hint under a secret that reads "********": where the real value comes from. */
function secretHint(config: string | undefined): string {
  return config ? `Kept on the server with “${config}” and filled in when you connect; type a new value to replace it.` : 'Load the saved configuration this came from, or type the value.';
}

function EnginePicker() {
  const wb = useWorkbench();
  const engines = wb.capabilities?.engines ?? [];
  // The install steps of one unavailable driver, shown under the cards at full width (a card is too narrow to read them).
  const [help, setHelp] = useState<string>();
  const shown = engines.find((e) => e.engine === help && !e.available);
  return (
    <fieldset className="engines">
      <legend>Engine</legend>
      {!engines.length && <p className="muted">Loading drivers…</p>}
      <div className="engine-cards">
        {engines.map((e) => (
          <label key={e.engine} className={`engine-card${e.available ? '' : ' unavailable'}${wb.state.engine === e.engine ? ' selected' : ''}`} data-engine={e.engine}>
            <input
              type="radio"
              name="engine"
              value={e.engine}
              checked={wb.state.engine === e.engine}
              disabled={!e.available}
              onChange={() => {
                wb.setEngine(e.engine as EngineId);
                // An engine that does not run the chosen workload, or runs it only in part (DuckDB: TPROC-C's schema, no transactions), switches to the first one it runs fully.
                const full = e.workloads.filter((w) => !e.limited?.[w]);
                if (full.length > 0 && !full.includes(wb.workload.id)) wb.setWorkload(full[0]!);
              }}
            />
            <span className="engine-name">{e.displayName}</span>
            <span className="muted small">
              {e.library}
              {e.libraryVersion ? ` ${e.libraryVersion}` : ''}
            </span>
            {e.notOffered &&
              Object.entries(e.notOffered).map(([w, why]) => (
                <span key={w} className="muted small engine-note" title={why} data-testid={`not-offered-${e.engine}-${w}`}>
                  No {workloadDef(w)?.display ?? w}: {firstLine(why).split(/(?<=\.) /)[0]}
                </span>
              ))}
            {e.limited &&
              Object.entries(e.limited).map(([w, what]) => (
                <span key={w} className="muted small engine-note" title={what} data-testid={`limited-${e.engine}-${w}`}>
                  {workloadDef(w)?.display ?? w}: {limitedLabel(what)}
                </span>
              ))}
            {!e.available && (
              <span className="engine-reason">
                <span className="bad">Unavailable:</span> {firstLine(e.reason ?? 'the driver does not load')}
                {(e.reason || e.install) && (
                  <button
                    type="button"
                    className="linkish small"
                    aria-expanded={help === e.engine}
                    aria-controls="engine-help"
                    data-testid={`install-${e.engine}`}
                    onClick={(ev) => {
                      ev.preventDefault();
                      setHelp(help === e.engine ? undefined : e.engine);
                    }}
                  >
                    {help === e.engine ? 'Hide install steps' : 'How to install'}
                  </button>
                )}
              </span>
            )}
          </label>
        ))}
      </div>
      {shown && (
        <section className="engine-help" id="engine-help" aria-label={`${shown.displayName} driver: how to install`} data-testid="engine-help">
          <h4>{shown.displayName} driver is unavailable</h4>
          <p className="engine-help-reason">{shown.reason ?? 'the driver does not load'}</p>
          {shown.install && <InstallSteps text={shown.install} />}
        </section>
      )}
    </fieldset>
  );
}

function SavedConfigs({ onLoaded }: { onLoaded: () => void }) {
  const wb = useWorkbench();
  const configs = useResource('configs', api.configs);
  const [name, setName] = useState(wb.state.config?.name ?? '');
  const [selected, setSelected] = useState<number | ''>(wb.state.config?.id ?? '');
  const errs = useApiErrors();
  const [message, setMessage] = useState('');

  // A saved configuration is (target, workload, options): the workload chosen on the Schema and Run pages, with its options.
  const body = () => ({ name: name.trim(), target: wb.target() as never, workload: wb.workload.id, options: savedOptionsOf(wb.workload.id, wb.workload.form, wb.options()) });
  const load = (c: SavedConfig) => {
    errs.clear();
    const w = workloadUi(c.workload);
    const stored = formOptionsOfSaved(c.workload, w.form, c.options);
    if (!stored || w.id !== c.workload) {
      setMessage('');
      errs.show(new ApiError('SLEDGE_E_VALIDATION', `“${c.name}” is a configuration of workload ${c.workload}, which this dashboard does not know`, 0, 'workload'), []);
      return;
    }
    const t = c.target as Record<string, unknown>;
    const engine = t['engine'] as EngineId;
    const fields = Object.entries(wb.schemas?.[engine]?.properties ?? {});
    const values: FormValues = {};
    for (const [k, s] of fields) {
      if (k === 'engine' || k === 'pool' || !(k in t)) continue;
      values[k] = typeof s['type'] === 'string' && s['type'] === 'boolean' ? t[k] === true : String(t[k]);
    }
    for (const f of w.form.schemaFields?.(engine) ?? []) if (f.name in stored.schema) values[f.name] = toFormValue(f, stored.schema[f.name]);
    // Its workload becomes the Schema and Run pages' one (the options of the one chosen before are kept aside), then its values are set.
    wb.setWorkload(w.id);
    wb.setTargetValues(engine, values);
    // The pool comes with its passwords as "********": the server fills them from the saved configuration (configId).
    wb.setPool(t['pool'] as ConnectPool | undefined);
    wb.setOptionValues({ ...w.form.defaults(), ...w.form.toForm(stored.options) });
    wb.setConfig({ id: c.id, name: c.name });
    setName(c.name);
    setMessage(`Loaded “${c.name}” (${w.name}).`);
    onLoaded();
  };
  const save = async (asNew: boolean) => {
    errs.clear();
    setMessage('');
    try {
      const c = asNew || !wb.state.config ? await api.saveConfig(body()) : await api.updateConfig(wb.state.config.id, body());
      wb.setConfig({ id: c.id, name: c.name });
      setSelected(c.id);
      setMessage(`Saved “${c.name}”.`);
      configs.reload();
    } catch (e) {
      const optionLabels = savedOptionLabels(wb.workload.id, wb.workload.form);
      errs.show(e, ['name', ...wb.targetFields.map((f) => `target.${f.name}`), ...Object.keys(optionLabels)], { name: 'Name', ...labelsOf('target', wb.targetFields), ...optionLabels });
    }
  };
  const current = configs.data?.find((c) => c.id === selected);
  return (
    <section className="card" aria-labelledby="saved-h">
      <h3 id="saved-h">Saved configurations</h3>
      <div className="row">
        <div className="field">
          <label htmlFor="config-select">Configuration</label>
          <select id="config-select" value={String(selected)} onChange={(e) => setSelected(e.target.value ? Number(e.target.value) : '')}>
            <option value="">—</option>
            {(configs.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({(c.target as { engine?: string }).engine}, {workloadUis().find((w) => w.id === c.workload)?.name ?? c.workload})
              </option>
            ))}
          </select>
        </div>
        <div className="actions">
          <button type="button" disabled={!current} onClick={() => current && load(current)}>
            Load
          </button>
          <ConfirmButton
            title="Delete configuration"
            message={<p>Delete the saved configuration “{current?.name}”? Jobs already run with it are kept.</p>}
            confirmLabel="Delete"
            disabled={!current}
            testId="delete-config"
            onConfirm={async () => {
              if (!current) return;
              try {
                await api.deleteConfig(current.id);
                if (wb.state.config?.id === current.id) wb.setConfig(undefined);
                setSelected('');
                configs.reload();
              } catch (e) {
                errs.show(e, []);
              }
            }}
          >
            Delete
          </ConfirmButton>
        </div>
      </div>
      <div className="row">
        <div className={`field${errs.fields['name'] ? ' has-error' : ''}`}>
          <label htmlFor="config-name">Name</label>
          <input id="config-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={errs.fields['name'] ? true : undefined} aria-describedby={errs.fields['name'] ? 'config-name-error' : undefined} />
          {errs.fields['name'] && (
            <p className="field-error" id="config-name-error" role="alert">
              {errs.fields['name']}
            </p>
          )}
        </div>
        <div className="actions">
          <button type="button" onClick={() => void save(true)} data-testid="save-config">
            Save as new
          </button>
          <button type="button" disabled={!wb.state.config} onClick={() => void save(false)}>
            Update “{wb.state.config?.name ?? '…'}”
          </button>
        </div>
      </div>
      <p className="muted small">Saved with the {wb.workload.name} options. Passwords are kept on the server and come back as {REDACTED}; sending {REDACTED} back keeps the stored one.</p>
      {Object.entries(errs.fields)
        .filter(([k]) => k !== 'name')
        .map(([k, m]) => (
          <p key={k} className="field-error" role="alert">
            {k}: {m}
          </p>
        ))}
      <ErrorBox error={errs.general} />
      {configs.error && <ErrorBox error={configs.error} title="Cannot list configurations" />}
      {message && (
        <p className="good" role="status">
          {message}
        </p>
      )}
    </section>
  );
}

export function TargetsPage() {
  const wb = useWorkbench();
  const errs = useApiErrors();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TargetTestResult>();
  const [, setLoadedTick] = useState(0);
  const fields = wb.targetFields.filter((f) => f.group === 'connection');
  const keys = [...wb.targetFields.map((f) => `target.${f.name}`), 'target.pool'];
  const labels = labelsOf('target', wb.targetFields);

  const test = async (e: FormEvent) => {
    e.preventDefault();
    errs.clear();
    setResult(undefined);
    setTesting(true);
    try {
      // The schema looked for is the workload's picked for the Schema and Run pages (DuckDB runs TPROC-H only, no TPROC-C).
      setResult(await api.testTarget(wb.target(), wb.configId(), wb.workload.id));
    } catch (err) {
      errs.show(err, keys, labels);
    } finally {
      setTesting(false);
    }
  };

  return (
    <div className="page">
      <h2>Target</h2>
      <ErrorBox error={wb.loadError} title="Cannot load engines" />
      <EnginePicker />
      <form className="card" onSubmit={test} noValidate aria-labelledby="conn-h">
        <h3 id="conn-h">Connection · {wb.schemas?.[wb.state.engine]?.title ?? wb.state.engine}</h3>
        <div className="form-grid">
          {fields.map((f) => (
            <Field
              key={`${wb.state.engine}.${f.name}`}
              spec={f}
              fieldKey={`target.${f.name}`}
              value={wb.targetValues[f.name] ?? toFormValue(f, f.default)}
              onChange={(v) => {
                wb.setTargetValue(f.name, v);
                errs.clear(`target.${f.name}`);
              }}
              error={errs.fields[`target.${f.name}`]}
              hint={f.secret && wb.targetValues[f.name] === REDACTED ? secretHint(wb.state.config?.name) : undefined}
            />
          ))}
        </div>
        {Object.entries(errs.fields)
          .filter(([k]) => !fields.some((f) => `target.${f.name}` === k) && k !== 'target.pool')
          .map(([k, m]) => (
            <p key={k} className="field-error" role="alert">
              {labels[k] ?? k} (on the {k.startsWith('target.') ? 'Schema or Run' : ''} page): {m}
            </p>
          ))}
        <div className="actions">
          <button type="submit" className="primary" disabled={testing} data-testid="test-connection">
            {testing ? 'Testing…' : 'Test connection'}
          </button>
          <Link to="/schema" className="button">
            Next: schema →
          </Link>
        </div>
        <ErrorBox error={errs.general} />
        {result && (
          <p className="good" role="status" data-testid="test-result">
            Connected: {result.version}. {schemaLine(result)}
          </p>
        )}
      </form>
      <PoolEditor
        engine={wb.state.engine}
        schema={wb.schemas?.[wb.state.engine]}
        workload={wb.state.workload}
        pool={wb.pool}
        onChange={(p) => {
          wb.setPool(p);
          errs.clear('target.pool');
        }}
        errors={errs.fields}
      />
      <SavedConfigs onLoaded={() => setLoadedTick((t) => t + 1)} />
      <div className="two-col">
        <ActiveSessionsNow
          target={wb.target}
          configId={wb.configId}
          onError={(e) => {
            // An error about a field of the form goes to that field; anything else shows with the sample.
            if (!(e instanceof ApiError) || !fieldKeyFor(e.field, keys)) return false;
            errs.show(e, keys, labels);
            return true;
          }}
        />
        <CpuAgents />
      </div>
    </div>
  );
}
