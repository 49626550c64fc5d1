import type { RunOptionsProps } from '../types.js';
import { MIX_FIELDS, RUN_FIELDS, SHAPE_FIELDS } from './form.js';

/** The Run page's TPROC-C fields: HammerDB's Driver Options, then the transaction mix. */
export function TproccRunOptions({ field, values }: RunOptionsProps) {
  // A run shape decides the sessions: say so under Virtual users.
  const shapeHint = String(values['steps'] ?? '').trim()
    ? 'Step loads are set: the run holds the largest step\'s VUs'
    : String(values['arrival.rate'] ?? '').trim()
      ? 'An arrival rate is set: Max sessions sets the sessions'
      : undefined;
  return (
    <>
      <div className="form-grid">{RUN_FIELDS.map((n) => (n === 'vus' && shapeHint ? field(n, shapeHint) : field(n)))}</div>
      <fieldset className="mix" data-testid="run-shape">
        <legend>Run shape</legend>
        <p className="help">
          Optional. Step loads change the VU count over time (each step starts its minutes after the previous one started); an arrival rate starts transactions at a set pace
          whatever their response time, on at most Max sessions (latency counts from the intended start). Set one or neither.
        </p>
        <div className="form-grid">{SHAPE_FIELDS.map((n) => field(n))}</div>
      </fieldset>
      <fieldset className="mix">
        <legend>Transaction mix weights</legend>
        <p className="help">Relative weights; HammerDB's mix is 10/10/1/1/1 (new order, payment, delivery, stock level, order status).</p>
        <div className="form-grid five">{MIX_FIELDS.map((n) => field(n))}</div>
      </fieldset>
    </>
  );
}
