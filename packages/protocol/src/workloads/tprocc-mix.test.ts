import { describe, expect, it } from 'vitest';
import { DEFAULT_MIX, TPROCC, configOf, isStandardMix, mixText, parseJobCreate, parseMixSpec } from '../index.js';
import { err } from '../test/err.js';

const target = { engine: 'sqlite', file: 'mix.sqlite' };
const run = (mix: unknown) => parseJobCreate({ type: 'run', target, tprocc: { mix } }, 1);

/** tprocc.mix: the per-transaction weight table, its checks, the standard-mix test and the CLI's --mix spec. */
describe('tprocc.mix', () => {
  it("is optional: left out, it is HammerDB's 10/10/1/1/1; given, it is kept (types left out at their defaults)", () => {
    expect(configOf(parseJobCreate({ type: 'run', target, tprocc: {} }, 1), 'tprocc').tprocc.mix).toEqual(DEFAULT_MIX);
    const only = { neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 };
    expect(configOf(run(only), 'tprocc').tprocc.mix).toEqual(only);
    expect(configOf(run({ payment: 20 }), 'tprocc').tprocc.mix).toEqual({ ...DEFAULT_MIX, payment: 20 });
  });

  it.each([
    [{ neworder: -1 }, 'tprocc.mix.neworder', 'must be >= 0'],
    [{ payment: 1.5 }, 'tprocc.mix.payment', 'must be an integer'],
    [{ delivery: 'x' }, 'tprocc.mix.delivery', 'must be an integer'],
    [{ stocklevel: 1001 }, 'tprocc.mix.stocklevel', 'must be <= 1000'],
    [{ slev: 1 }, 'tprocc.mix.slev', 'unknown field'],
    [{ neworder: 0, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 }, 'tprocc.mix', 'at least one transaction a weight above 0'],
    [[10, 10, 1, 1, 1], 'tprocc.mix', 'object'],
  ])('refuses %j naming %s', (mix, field, msg) => {
    const e = err(() => run(mix));
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.field).toBe(field);
    expect(e.message).toContain(msg);
  });

  it("is standard when in HammerDB's proportions 10/10/1/1/1, whatever the scale", () => {
    expect(isStandardMix(DEFAULT_MIX)).toBe(true);
    expect(isStandardMix({ neworder: 20, payment: 20, delivery: 2, stocklevel: 2, orderstatus: 2 })).toBe(true);
    expect(isStandardMix({ neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 })).toBe(false);
    expect(isStandardMix({ neworder: 45, payment: 43, delivery: 4, stocklevel: 4, orderstatus: 4 })).toBe(false);
    expect(isStandardMix({ neworder: 10, payment: 10, delivery: 1, stocklevel: 1, orderstatus: 2 })).toBe(false);
    expect(mixText(DEFAULT_MIX)).toBe('neworder 10, payment 10, delivery 1, stocklevel 1, orderstatus 1');
  });

  it('the job summary says when a result ran a non-standard mix', () => {
    const r = { nopm: 5, tpm: 9, activeVus: 2 };
    expect(TPROCC.summary!({ ...r, standardMix: true })).toBe('5 NOPM, 9 TPM, 2 VU');
    expect(TPROCC.summary!({ ...r, standardMix: false })).toBe('5 NOPM, 9 TPM, 2 VU, non-standard mix');
  });

  it('--mix TYPE=WEIGHT,...: the whole table, the types left out at 0; a bad part is named', () => {
    expect(parseMixSpec('neworder=100')).toEqual({ neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 });
    expect(parseMixSpec(' neworder=45, payment=43,delivery=4,stocklevel=4,orderstatus=4 ')).toEqual({ neworder: 45, payment: 43, delivery: 4, stocklevel: 4, orderstatus: 4 });
    expect(() => parseMixSpec('slev=4')).toThrow(/"slev=4" is not TYPE=WEIGHT with TYPE one of neworder, payment/);
    expect(() => parseMixSpec('neworder=-1')).toThrow(/"neworder=-1" is not TYPE=WEIGHT/);
    expect(() => parseMixSpec('neworder=1.5')).toThrow(/WEIGHT a whole number/);
    expect(() => parseMixSpec('neworder=1,neworder=2')).toThrow(/neworder is given twice/);
    expect(() => parseMixSpec(' , ')).toThrow(/TYPE=WEIGHT pairs/);
  });
});
