import { describe, expect, it } from 'vitest';
import { FIELD_FLAGS, jobBody } from '../src/args.js';

describe('TPROC-C schema flags', () => {
  it('--stored-procs, --partition and --storage-engine set tprocc.schema, not the target', () => {
    const b = jobBody('build', { db: 'mysql', partition: true, 'storage-engine': 'Aria', warehouses: '4', 'no-stored-procs': true });
    expect(b['tprocc']).toEqual({ warehouses: 4, schema: { partition: true, storageEngine: 'Aria' } });
    expect(b['target']).toEqual({ engine: 'mysql', noStoredProcs: true });
    expect((jobBody('run', { db: 'postgresql', 'stored-procs': true })['tprocc'] as Record<string, unknown>)['schema']).toEqual({ storedProcs: true });
    expect(jobBody('run', { db: 'postgresql' })['tprocc']).toEqual({});
    // PostgreSQL's client-side SQL is a target field, as MySQL's is.
    expect(jobBody('run', { db: 'postgresql', 'no-stored-procs': true })['target']).toEqual({ engine: 'postgresql', noStoredProcs: true });
  });
  it('server errors on them name the flag', () => {
    expect(FIELD_FLAGS['tprocc.schema.storedProcs']).toBe('--stored-procs');
    expect(FIELD_FLAGS['tprocc.schema.storageEngine']).toBe('--storage-engine');
  });
});
