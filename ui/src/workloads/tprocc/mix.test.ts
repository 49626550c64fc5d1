import { describe, expect, it } from 'vitest';
import { mixShares, tproccDefaults, tproccToForm } from './form.js';
import { tproccResult } from './result.js';

/** The Run page's mix weights as typed, and a result's mix as the job page reads it. */
describe('TPROC-C mix weights in the UI', () => {
  it("the defaults are HammerDB's standard mix; new order only is not; shares follow the weights", () => {
    const d = mixShares(tproccDefaults());
    expect(d?.standard).toBe(true);
    expect(d?.shares.neworder).toBeCloseTo((10 / 23) * 100, 6);
    const only = mixShares({ ...tproccDefaults(), 'mix.neworder': '100', 'mix.payment': '0', 'mix.delivery': '0', 'mix.stocklevel': '0', 'mix.orderstatus': '' });
    expect(only).toEqual({ shares: { neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 }, standard: false });
    expect(mixShares(tproccToForm({ mix: { neworder: 20, payment: 20, delivery: 2, stocklevel: 2, orderstatus: 2 } }))?.standard).toBe(true);
  });

  it('says nothing while a weight is not a whole number >= 0 or every weight is 0', () => {
    expect(mixShares({ ...tproccDefaults(), 'mix.payment': '-1' })).toBeUndefined();
    expect(mixShares({ ...tproccDefaults(), 'mix.payment': '2.5' })).toBeUndefined();
    expect(mixShares({ 'mix.neworder': '0', 'mix.payment': '0', 'mix.delivery': '0', 'mix.stocklevel': '0', 'mix.orderstatus': '0' })).toBeUndefined();
  });

  it("reads the result's mix and flag (old results have neither)", () => {
    const base = { nopm: 10, tpm: 20, activeVus: 2, tpmSource: 'client' as const, line: 'x', measuredSeconds: 5 };
    const mix = { neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 };
    expect(tproccResult({ result: { ...base, mix, standardMix: false } })).toMatchObject({ mix, standardMix: false });
    expect(tproccResult({ result: base })?.standardMix).toBeUndefined();
  });
});
