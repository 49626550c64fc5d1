import { describe, expect, it } from 'vitest';
import { ENGINES } from './engines.js';
import { parseJobCreate } from './index.js';
import { didYouMean, editDistance, nearestNames } from './suggest.js';

describe('did you mean (issue 31 item 10d)', () => {
  it('edit distance counts inserts, deletes and substitutions', () => {
    expect(editDistance('postgress', 'postgresql')).toBe(2);
    expect(editDistance('rnu', 'run')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('the closest names within 2 edits, or those the given text starts; ties all named', () => {
    expect(nearestNames('postgress', ENGINES)).toEqual(['postgresql']);
    expect(nearestNames('PostgreSQL', ENGINES)).toEqual([]);
    expect(nearestNames('postgres', ENGINES)).toEqual(['postgresql']);
    expect(nearestNames('maria', ENGINES)).toEqual(['mariadb']);
    expect(nearestNames('mysq', ENGINES)).toEqual(['mysql']);
    expect(nearestNames('tproc', ['tprocc', 'tproch'])).toEqual(['tprocc', 'tproch']);
    expect(nearestNames('mongo', ENGINES)).toEqual([]);
    expect(didYouMean('timd', ['test', 'timed'])).toBe(': did you mean "timed"?');
    expect(didYouMean('tproc', ['tprocc', 'tproch'])).toBe(': did you mean "tprocc" or "tproch"?');
    expect(didYouMean(42, ['test', 'timed'])).toBe('');
    expect(didYouMean('zzzzzz', ['test', 'timed'])).toBe('');
  });

  it('API errors for a field with a fixed set of values suggest the value meant', () => {
    const fields = (body: unknown) => {
      try {
        parseJobCreate(body, 1);
      } catch (e) {
        return (e as { errors?: { field: string; message: string }[]; field?: string; message: string }).errors ?? [{ field: (e as { field: string }).field, message: (e as Error).message }];
      }
      throw new Error('no error');
    };
    expect(fields({ type: 'run', target: { engine: 'postgress' } })).toContainEqual({
      field: 'target.engine',
      message: 'target.engine "postgress" is not a known engine: did you mean "postgresql"?; choose one of sqlite, postgresql, mysql, mariadb, mssql, oracle, db2, duckdb',
    });
    expect(fields({ type: 'run', target: { engine: 'sqlite' }, tprocc: { driver: 'timd' } })).toContainEqual({ field: 'tprocc.driver', message: 'tprocc.driver must be one of test, timed (got "timd"): did you mean "timed"?' });
    expect(fields({ type: 'run', workload: 'tproc', target: { engine: 'sqlite' } }).find((x) => x.field === 'workload')!.message).toBe('workload "tproc" must be one of tprocc, tproch, chbench, script: did you mean "tprocc" or "tproch"?');
    expect(fields({ type: 'run', target: { engine: 'sqlite', synchronous: 'sometimes' } }).find((x) => x.field === 'target.synchronous')!.message).toBe('target.synchronous must be one of off, normal, full (got "sometimes")');
  });
});
