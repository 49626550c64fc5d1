import type { RunOptionsProps } from '../types.js';
import { RUN_FIELDS, SCRIPTS_FIELD, SCRIPT_SLOTS } from './form.js';
import { ScriptEditor } from './ScriptEditor.js';

/** The Run page's script workload: its run settings, then the scripts' editor. */
export function ScriptRunOptions({ engine, field, values, setValue, errors = {}, clearError }: RunOptionsProps) {
  return (
    <>
      <div className="form-grid">{RUN_FIELDS.map((n) => (n === 'scale' ? field(n, ':scale in the scripts; 0 = the pgbench_branches row count (1 without that table)') : field(n)))}</div>
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
