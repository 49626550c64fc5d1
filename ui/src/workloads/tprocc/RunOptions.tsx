import type { RunOptionsProps } from '../types.js';
import { KEY_THINK_ROWS, MIX_FIELDS, RUN_FIELDS } from './form.js';

/** The Run page's TPROC-C fields: HammerDB's Driver Options, the keying and thinking table (while it is on), then the transaction mix. */
export function TproccRunOptions({ field, values }: RunOptionsProps) {
  return (
    <>
      <div className="form-grid">{RUN_FIELDS.map((n) => field(n))}</div>
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
      <fieldset className="mix">
        <legend>Transaction mix weights</legend>
        <p className="help">Relative weights; HammerDB's mix is 10/10/1/1/1 (new order, payment, delivery, stock level, order status).</p>
        <div className="form-grid five">{MIX_FIELDS.map((n) => field(n))}</div>
      </fieldset>
    </>
  );
}
