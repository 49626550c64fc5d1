import type { RunOptionsProps } from '../types.js';
import { KEY_THINK_ROWS, RUN_FIELDS, SHAPE_FIELDS } from './form.js';
import { MixWeights } from './MixWeights.js';
import { shapeHint } from '../run-shape.js';

/** The Run page's TPROC-C fields: HammerDB's Driver Options, the keying and thinking table (while it is on), the run shape, then the transaction mix. */
export function TproccRunOptions({ field, values, setValue }: RunOptionsProps) {
  // A run shape decides the sessions: say so under Virtual users.
  const hint = shapeHint(values);
  return (
    <>
      <div className="form-grid">{RUN_FIELDS.map((n) => (n === 'vus' && hint ? field(n, hint) : field(n)))}</div>
      {values['keyAndThink'] === true && (
        <fieldset className="mix key-think" data-testid="key-think-table">
          <legend>Keying and thinking times (seconds)</legend>
          <p className="help">
            Keying time before each transaction; thinking time after it, negative exponential with this mean (truncated at 10x). TPC-C's times: 18/12, 3/12, 2/10, 2/5, 2/5.
          </p>
          <table className="key-think-table">
            <thead>
              <tr>
                <th scope="col">Transaction</th>
                <th scope="col">Keying (s)</th>
                <th scope="col">Mean thinking (s)</th>
              </tr>
            </thead>
            <tbody>
              {KEY_THINK_ROWS.map((r) => (
                <tr key={r.type}>
                  <th scope="row">{r.label}</th>
                  <td>{field(r.keying, '')}</td>
                  <td>{field(r.think, '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </fieldset>
      )}
      <fieldset className="mix" data-testid="run-shape">
        <legend>Run shape</legend>
        <p className="help">
          Optional. Step loads change the VU count over time (each step starts its minutes after the previous one started); an arrival rate starts transactions at a set pace
          whatever their response time, on at most Max sessions (latency counts from the intended start). Set one or neither.
        </p>
        <div className="form-grid">{SHAPE_FIELDS.map((n) => field(n))}</div>
      </fieldset>
      <MixWeights field={field} values={values} setValue={setValue} />
    </>
  );
}
