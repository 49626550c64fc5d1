import { DEFAULT_MIX, TX_PROC, TX_TYPES } from '@sledge/protocol';
import type { RunOptionsProps } from '../types.js';
import { MIX_FIELDS, mixShares } from './form.js';

const NEWORDER_ONLY = { neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 } as const;

/** The Run page's transaction mix: a weight per transaction, each one's share, whether it is HammerDB's standard mix, and two presets. */
export function MixWeights({ field, values, setValue }: Pick<RunOptionsProps, 'field' | 'values' | 'setValue'>) {
  const m = mixShares(values);
  const set = (mix: Record<string, number>) => TX_TYPES.forEach((t) => setValue(`mix.${t}`, String(mix[t])));
  return (
    <fieldset className="mix" data-testid="mix-weights">
      <legend>Transaction mix weights</legend>
      <p className="help">
        Relative weights; HammerDB's mix is 10/10/1/1/1 (new order, payment, delivery, stock level, order status). Another mix measures a different workload: its NOPM is not
        comparable with HammerDB's standard runs.
      </p>
      <div className="form-grid five">{MIX_FIELDS.map((n) => field(n))}</div>
      <p className="help" data-testid="mix-status" data-standard={m ? String(m.standard) : undefined}>
        {m && (
          <>
            {TX_TYPES.map((t) => `${TX_PROC[t]} ${m.shares[t].toFixed(1)}%`).join(' · ')}
            {' — '}
            {m.standard ? "HammerDB's standard mix" : <strong>not HammerDB's standard mix: NOPM is not comparable with standard runs</strong>}
          </>
        )}{' '}
        <button type="button" className="small" data-testid="mix-standard" onClick={() => set(DEFAULT_MIX)}>
          HammerDB's mix
        </button>{' '}
        <button type="button" className="small" data-testid="mix-neworder-only" onClick={() => set(NEWORDER_ONLY)}>
          New order only
        </button>
      </p>
    </fieldset>
  );
}
