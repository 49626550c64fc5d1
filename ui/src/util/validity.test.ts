import { describe, expect, it } from 'vitest';
import { validityOf } from '@sledge/protocol';
import { validityView } from './validity.js';
import { tprochResultFixture } from '../workloads/tproch/fixtures.js';

describe('validity panel view', () => {
  const result = { nopm: 10, tpm: 20 };
  it('a completed run with a verdict counts its checks by status', () => {
    const validity = validityOf([
      { id: 'a', title: 'A', status: 'pass', detail: 'ok' },
      { id: 'b', title: 'B', status: 'warn', detail: 'drift' },
      { id: 'c', title: 'C', status: 'skip', detail: 'n/a' },
    ]);
    const v = validityView({ type: 'run', status: 'completed', result: { ...result, validity } as never });
    expect(v).toMatchObject({ kind: 'verdict', validity: { status: 'warn' }, counts: { pass: 1, warn: 1, fail: 0, skip: 1 } });
  });
  it('an old run without a verdict opens as "not computed"; builds and unfinished runs show nothing', () => {
    expect(validityView({ type: 'run', status: 'completed', result: result as never }).kind).toBe('not-computed');
    expect(validityView({ type: 'build', status: 'completed', result: undefined }).kind).toBe('none');
    expect(validityView({ type: 'run', status: 'measuring', result: undefined }).kind).toBe('none');
  });
  it('a TPROC-H run (no verdict computed for it) shows nothing rather than "not computed"', () => {
    expect(validityView({ type: 'run', status: 'completed', result: tprochResultFixture() }).kind).toBe('none');
  });
});
