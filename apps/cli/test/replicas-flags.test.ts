import { describe, expect, it } from 'vitest';
import { FIELD_FLAGS, jobBody } from '../src/args.js';

describe('placement flags', () => {
  it('--replicas all | NAME,NAME and --replica-vus NAME=N give the job body\'s placement', () => {
    expect(jobBody('run', { replicas: 'all' })['placement']).toEqual({ on: 'replicas' });
    expect(jobBody('run', { replicas: 'r1, r2' })['placement']).toEqual({ on: 'replicas', replicas: ['r1', 'r2'] });
    expect(jobBody('run', { 'replica-vus': 'r1=3,r2=1' })['placement']).toEqual({ on: 'replicas', vus: { r1: 3, r2: 1 } });
    expect(jobBody('run', {})['placement']).toBeUndefined();
  });

  it('a malformed --replica-vus says the form; server fields map back to the flags', () => {
    expect(() => jobBody('run', { 'replica-vus': 'r1:3' })).toThrow(/--replica-vus "r1:3": give NAME=VUS pairs, e.g. r1=4,r2=4/);
    expect(FIELD_FLAGS['placement.vus']).toBe('--replica-vus');
    expect(FIELD_FLAGS['placement.replicas']).toBe('--replicas');
  });
});
