import type { RunOptionsProps } from '../types.js';
import { shapeHint } from '../run-shape.js';
import { RUN_FIELDS, SCRIPTS_FIELD, SCRIPT_SLOTS, SHAPE_FIELDS } from './form.js';
import { ScriptEditor } from './ScriptEditor.js';

/** The Run page's script workload: its run settings, then the scripts' editor. */
export function ScriptRunOptions({ engine, field, values, setValue, errors = {}, clearError }: RunOptionsProps) {
  // A run shape decides the sessions: say so under Virtual users.
  const hint = shapeHint(values);
  return (
    <>
      <div className="form-grid">
        {RUN_FIELDS.map((n) => (n === 'scale' ? field(n, ':scale in the scripts; 0 = the pgbench_branches row count (1 without that table)') : n === 'vus' && hint ? field(n, hint) : field(n)))}
      </div>
      <fieldset className="mix" data-testid="run-shape">
        <legend>Run shape</legend>
        <p className="help">
          Optional. Step loads change the VU count over time (each step starts its minutes after the previous one started; each step&apos;s TPS and latency per script
          are in the result); an arrival rate starts scripts at a set pace whatever their response time, on at most Max sessions (latency counts from the intended
          start). Set one or neither.
        </p>
        <div className="form-grid">{SHAPE_FIELDS.map((n) => field(n))}</div>
      </fieldset>
      <ScriptEditor
        engine={engine}
        value={values[SCRIPTS_FIELD]}
        onChange={(v) => {
          setValue(SCRIPTS_FIELD, v);
          for (const s of SCRIPT_SLOTS) if (errors[`script.${s}`]) clearError?.(s);
        }}
        slotError={(i) => errors[`script.${SCRIPT_SLOTS[i]}`]}
        listError={errors['script.scripts']}
      />
    </>
  );
}

/** The Schema page's build: pgbench -i's scale. */
export function ScriptBuildOptions({ field }: RunOptionsProps) {
  return <div className="form-grid">{field('scale', "pgbench -i -s: 100,000 accounts, 10 tellers and 1 branch per unit (0 builds scale 1)")}</div>;
}
