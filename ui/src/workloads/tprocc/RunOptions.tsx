import type { RunOptionsProps } from '../types.js';
import { MIX_FIELDS, RUN_FIELDS } from './form.js';

/** The Run page's TPROC-C fields: HammerDB's Driver Options, then the transaction mix. */
export function TproccRunOptions({ field }: RunOptionsProps) {
  return (
    <>
      <div className="form-grid">{RUN_FIELDS.map((n) => field(n))}</div>
      <fieldset className="mix">
        <legend>Transaction mix weights</legend>
        <p className="help">Relative weights; HammerDB's mix is 10/10/1/1/1 (new order, payment, delivery, stock level, order status).</p>
        <div className="form-grid five">{MIX_FIELDS.map((n) => field(n))}</div>
      </fieldset>
    </>
  );
}
