import { describe, expect, it } from 'vitest';
import { parseJobCreate } from '@sledge/protocol';
import { FIELD_FLAGS, jobBody } from '../src/args.js';

describe('--ash-scope', () => {
  it('sets metrics.ashScope; without it the job samples the target database (the default)', () => {
    const b = jobBody('run', { db: 'postgresql', 'ash-scope': 'server', 'ash-background-idle': true });
    expect(b['metrics']).toEqual({ ashScope: 'server', ashBackgroundIdle: true });
    expect(parseJobCreate(b, 1).metrics.ashScope).toBe('server');
    const plain = jobBody('run', { db: 'postgresql' });
    expect(plain['metrics']).toBeUndefined();
    expect(parseJobCreate(plain, 1).metrics.ashScope).toBe('database');
  });

  it('a bad value is a typed error on metrics.ashScope, which names its flag', () => {
    expect(() => parseJobCreate(jobBody('run', { db: 'postgresql', 'ash-scope': 'cluster' }), 1)).toThrow(
      expect.objectContaining({ code: 'SLEDGE_E_VALIDATION', field: 'metrics.ashScope' }),
    );
    expect(FIELD_FLAGS['metrics.ashScope']).toBe('--ash-scope');
  });
});
