import { ENGINE_DISPLAY } from '@sledge/protocol';
import { useWorkbench } from '../state/workbench.js';
import { workloadUis } from '../workloads/registry.js';

/** 'Schema only (build, check, delete; no runs). DuckDB runs ...' -> 'Schema only (build, check, delete; no runs)'. */
const firstSentence = (text: string): string => text.split(/\. /)[0]!.replace(/\.$/, '');

/**
 * Which workload the Schema and Run pages build and run (TPROC-C, TPROC-H):
 * every workload the UI ships; one the engine's driver declares no hooks for
 * is shown but cannot be picked, and one it runs only in part (capabilities'
 * `limited`: DuckDB's TPROC-C schema without transactions) says what part.
 */
export function WorkloadPicker() {
  const wb = useWorkbench();
  const engine = wb.capabilities?.engines.find((e) => e.engine === wb.state.engine);
  const supported = (id: string) => !engine || engine.workloads.length === 0 || engine.workloads.includes(id);
  return (
    <fieldset className="workload-picker" data-testid="workload-picker">
      <legend>Workload</legend>
      {workloadUis().map((w) => {
        const ok = supported(w.id);
        return (
          <label key={w.id} className={ok ? undefined : 'muted'} title={ok ? undefined : (engine?.notOffered?.[w.id] ?? `${ENGINE_DISPLAY[wb.state.engine]}'s driver has no ${w.name} support`)}>
            <input type="radio" name="workload" value={w.id} checked={wb.workload.id === w.id} disabled={!ok && wb.workload.id !== w.id} onChange={() => wb.setWorkload(w.id)} data-workload={w.id} />{' '}
            {w.name}
            {!ok && <span className="small"> (not on {ENGINE_DISPLAY[wb.state.engine]})</span>}
            {ok && engine?.limited?.[w.id] && (
              <span className="small muted" title={engine.limited[w.id]} data-testid={`limited-${w.id}`}>
                {' '}
                ({firstSentence(engine.limited[w.id]!)})
              </span>
            )}
          </label>
        );
      })}
    </fieldset>
  );
}
