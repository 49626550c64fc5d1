import { describe, expect, it } from 'vitest';
import { parseJobCreate, SledgeError } from '@sledge/protocol';
import { ApiError } from '../api/http.js';
import { labelMessage, placeErrors, precheckJob } from './errors.js';
import { collectTprocc, TPROCC_LABELS } from '../workloads/tprocc/form.js';

const keys = ['tprocc.vus', 'tprocc.duration', 'tprocc.rampup', 'tprocc.warehouses', 'tprocc.buildVus', 'tprocc.mix.payment', 'target.port'];
const labels = { ...TPROCC_LABELS, 'target.port': 'Port' };

/** What the server answers for a body, as the UI's ApiError. */
function serverError(body: unknown): ApiError {
  try {
    parseJobCreate(body, 1);
  } catch (e) {
    const se = e as SledgeError;
    return new ApiError(se.code, se.message, se.httpStatus, se.field, se.errors ? [...se.errors] : undefined);
  }
  throw new Error('the body was accepted');
}

describe('labelMessage', () => {
  it('replaces whole dotted paths with their labels, longest first', () => {
    expect(labelMessage('tprocc.vus must be >= 1 (got 0)', labels)).toBe('Virtual users must be >= 1 (got 0)');
    expect(labelMessage('tprocc.buildVus (2) must not exceed tprocc.warehouses (1): each build VU loads at least one warehouse', labels)).toBe(
      'Build virtual users (2) must not exceed Warehouses (1): each build VU loads at least one warehouse',
    );
    expect(labelMessage('tprocc.mix.payment must be >= 0 (got -1)', labels)).toBe(`${TPROCC_LABELS['tprocc.mix.payment']!} must be >= 0 (got -1)`);
    // Not inside a longer path or name.
    expect(labelMessage('tprocc.vusX and tprocc.vus.extra', labels)).toBe('tprocc.vusX and tprocc.vus.extra');
  });
});

describe('placeErrors', () => {
  it('puts every field error of one server reply at its field, with labels', () => {
    const err = serverError({ type: 'run', target: { engine: 'sqlite', bogus: 1 }, tprocc: { vus: 0, duration: -1, warehouses: 0 } });
    expect(err.errors?.length).toBeGreaterThanOrEqual(3);
    const placed = placeErrors(err, keys, labels);
    expect(placed.fields['tprocc.vus']).toMatch(/^Virtual users must be >= 1 \(got 0\)$/);
    expect(placed.fields['tprocc.duration']).toMatch(/^Duration .*must be >= .*\(got -1\)$/);
    expect(placed.fields['tprocc.warehouses']).toMatch(/^Warehouses must be >= 1 \(got 0\)$/);
    for (const m of Object.values(placed.fields)) expect(m).not.toMatch(/tprocc\./);
    // The unknown target field has no form key: it is shown apart, named as the server names it.
    expect(placed.general?.message).toMatch(/unknown field target\.bogus/);
  });

  it('places a single-field error and leaves a field-less one general', () => {
    const one = placeErrors(new ApiError('SLEDGE_E_VALIDATION', 'target.port must be <= 65535 (got 70000)', 400, 'target.port'), keys, labels);
    expect(one).toEqual({ fields: { 'target.port': 'Port must be <= 65535 (got 70000)' }, general: undefined });
    const none = placeErrors(new ApiError('SLEDGE_E_CONNECT', 'connection refused', 422), keys, labels);
    expect(none.fields).toEqual({});
    expect(none.general?.message).toBe('connection refused');
    const thrown = placeErrors(new Error('boom'), keys, labels);
    expect(thrown.general?.code).toBe('SLEDGE_E_INTERNAL');
  });
});

describe('precheckJob (before the round trip)', () => {
  const sqlite = { engine: 'sqlite', file: 'x.sqlite' };
  it('finds every out-of-range option the server would refuse', () => {
    const bad = precheckJob({ target: sqlite, tprocc: collectTprocc({ vus: '0', duration: '-1', rampup: '-2', driver: 'timed' }, ['vus', 'duration', 'rampup', 'driver']) });
    expect(bad).toBeInstanceOf(ApiError);
    expect(bad!.code).toBe('SLEDGE_E_VALIDATION');
    expect(bad!.errors!.map((e) => e.field).sort()).toEqual(['tprocc.duration', 'tprocc.rampup', 'tprocc.vus']);
  });

  it('lists target and option errors together, leaving secrets to the server', () => {
    const bad = precheckJob({ target: { engine: 'postgresql', port: 70000, password: '' }, tprocc: { warehouses: 0 } });
    const fields = bad!.errors!.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['target.port', 'tprocc.warehouses']));
    expect(fields.filter((f) => f === 'target.password' || f === 'target.superuserPassword')).toEqual([]);
    // A body whose only fault is an empty secret goes to the server (a saved configuration may fill it).
    expect(precheckJob({ target: { engine: 'postgresql', password: '' } })).toBeNull();
  });

  it('names a value that is not a number', () => {
    const bad = precheckJob({ target: sqlite, tprocc: collectTprocc({ warehouses: 'abc', buildVus: '1' }, ['warehouses', 'buildVus']) });
    expect(bad?.field).toBe('tprocc.warehouses');
    expect(bad?.message).toMatch(/must be an integer/);
  });

  it('checks the rules across fields too, and passes good bodies', () => {
    expect(precheckJob({ target: sqlite, tprocc: { warehouses: 1, buildVus: 2 } })?.field).toBe('tprocc.buildVus');
    expect(precheckJob({ target: sqlite, tprocc: collectTprocc({ warehouses: '2', buildVus: '2' }, ['warehouses', 'buildVus']) })).toBeNull();
    expect(precheckJob({ target: sqlite, tprocc: { vus: 3, rampup: 0, duration: 1 } })).toBeNull();
    expect(precheckJob({ target: sqlite })).toBeNull();
  });
});
