import { ENGINE_DISPLAY, ENGINE_URL, isEngineId, type ReplicaList } from '@sledge/protocol';
import { Link } from '../router.js';
import { fmtNum } from '../util/format.js';
import { evenSpread, typedVusSum, unusableReason, vusInput, type PlacementDraft, type PlacementMode } from '../util/replicas.js';

export interface PlacementEditorProps {
  value: PlacementDraft;
  onChange: (d: PlacementDraft) => void;
  /** GET /replicas (enabled). */
  list: ReplicaList;
  /** The target's engine (a replica needs its driver). */
  engine: string;
  /** The run's VUs as typed in the form, when a whole number. */
  runVus: number | undefined;
  /** The field error of `placement` (the server's or the form's own). */
  error: string | undefined;
}

const MODES: { mode: PlacementMode; label: string }[] = [
  { mode: 'local', label: 'This server' },
  { mode: 'all', label: 'All ready replicas' },
  { mode: 'chosen', label: 'Chosen replicas' },
];

const spreadText = (s: { name: string; vus: number }[]) => s.map((x) => `${x.name} ${x.vus} VU${x.vus === 1 ? '' : 's'}`).join(', ');

/** "Where VUs run": this server (default), every ready replica (an even spread), or chosen replicas with optional VUs each. Sets the job body's `placement`. */
export function PlacementEditor({ value, onChange, list, engine, runVus, error }: PlacementEditorProps) {
  const ready = list.replicas.filter((r) => r.state === 'ready');
  const set = (patch: Partial<PlacementDraft>) => onChange({ ...value, ...patch });
  const toggle = (name: string, on: boolean) => {
    const chosen = on ? [...value.chosen.filter((n) => n !== name), name] : value.chosen.filter((n) => n !== name);
    // Keep the order of the list (by name), as the server places VUs in the order named.
    const order = list.replicas.map((r) => r.name);
    set({ chosen: chosen.sort((a, b) => order.indexOf(a) - order.indexOf(b)) });
  };
  const sum = typedVusSum(value);
  const sumOff = sum !== undefined && runVus !== undefined && sum !== runVus;
  return (
    <fieldset className={`mix placement${error ? ' placement-invalid' : ''}`} data-testid="placement" aria-describedby="placement-help">
      <legend>Where VUs run</legend>
      <div className="placement-modes" role="radiogroup" aria-label="Where VUs run">
        {MODES.map((m) => (
          <label key={m.mode}>
            <input type="radio" name="placement-mode" value={m.mode} checked={value.mode === m.mode} onChange={() => set({ mode: m.mode })} data-testid={`placement-${m.mode}`} />
            {m.label}
            {m.mode === 'local' && <span className="muted small">(default)</span>}
            {m.mode === 'all' && <span className="muted small">({ready.length} ready)</span>}
          </label>
        ))}
      </div>
      <p className="help" id="placement-help" data-testid="placement-help">
        {value.mode === 'local' && 'The VUs run in this server\'s worker threads.'}
        {value.mode === 'all' &&
          (ready.length === 0
            ? 'No replica is ready now: the run would be refused.'
            : `The VUs are spread evenly over the replicas ready when the run starts${runVus !== undefined ? `: ${spreadText(evenSpread(runVus, ready.map((r) => r.name)))}` : ''}. NOPM and TPM still come from the database, read by this server.`)}
        {value.mode === 'chosen' && 'Tick the replicas to use. Leave every VUs box empty for an even spread, or give each replica its VUs (they add up to the run\'s VUs).'}{' '}
        <Link to="/replicas">Replicas page</Link>
      </p>
      {!list.authenticated && value.mode !== 'local' && (
        <p className="warn-text small" role="status">
          ⚠ This server&apos;s NATS connection does not authenticate: runs on replicas are refused (they would receive the target&apos;s credentials).
        </p>
      )}
      {isEngineId(engine) && ENGINE_URL[engine].form === 'file' && value.mode !== 'local' && (
        <p className="warn-text small" role="status" data-testid="placement-sqlite">
          ⚠ A {isEngineId(engine) ? ENGINE_DISPLAY[engine] : engine} target is a file: each replica opens the file at that path on its own machine, not this server&apos;s database. Use a client/server engine for runs on replicas.
        </p>
      )}
      {value.mode === 'chosen' && (
        <table className="data compact placement-pick" data-testid="placement-pick">
          <thead>
            <tr>
              <th scope="col">Replica</th>
              <th scope="col">Host</th>
              <th scope="col" className="num">
                Cores
              </th>
              <th scope="col" className="num">
                CPU
              </th>
              <th scope="col">VUs</th>
            </tr>
          </thead>
          <tbody>
            {list.replicas.map((r) => {
              const why = unusableReason(r, engine);
              const checked = value.chosen.includes(r.name);
              const id = `placement-r-${r.name}`;
              return (
                <tr key={r.name} data-replica={r.name}>
                  <th scope="row">
                    <label htmlFor={id} className="inline">
                      <input id={id} type="checkbox" checked={checked} disabled={why !== undefined && !checked} onChange={(e) => toggle(r.name, e.target.checked)} data-testid={`placement-pick-${r.name}`} />
                      {r.name}
                    </label>
                    {why && <span className="muted small"> ({why})</span>}
                  </th>
                  <td className="mono">{r.host}</td>
                  <td className="num">{r.cores}</td>
                  <td className="num">{r.cpuPct === null ? '–' : `${fmtNum(r.cpuPct, 0)} %`}</td>
                  <td>
                    <input
                      type="text"
                      inputMode="numeric"
                      aria-label={`VUs on ${r.name}`}
                      placeholder="even"
                      disabled={!checked}
                      value={checked ? (value.vus[r.name] ?? '') : ''}
                      onChange={(e) => set({ vus: { ...value.vus, [r.name]: vusInput(e.target.value) } })}
                      data-testid={`placement-vus-${r.name}`}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={4}>
                VUs
              </th>
              <td className={`placement-sum${sumOff ? ' off' : ''}`} data-testid="placement-sum">
                {sum === undefined
                  ? value.chosen.length && runVus !== undefined
                    ? `even: ${spreadText(evenSpread(runVus, value.chosen))}`
                    : '–'
                  : `${sum} of ${runVus ?? '?'}${sumOff ? ' (must be equal)' : ''}`}
              </td>
            </tr>
          </tfoot>
        </table>
      )}
      {error && (
        <p className="field-error" role="alert" data-testid="placement-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
