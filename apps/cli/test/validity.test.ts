import { describe, expect, it } from 'vitest';
import { validityOf } from '@sledge/protocol';
import { validityReport } from '../src/validity.js';

describe('validity report (sledge run, sledge job <id>)', () => {
  it('prints one line per check and the overall line; a result without a verdict prints nothing', () => {
    const validity = validityOf([
      { id: 'mix', title: 'Achieved transaction mix', status: 'pass', detail: 'neworder 43.5%' },
      { id: 'foreign-load', title: 'Foreign load on the server', status: 'warn', detail: 'engine TPM 4600 vs 2200 (2.09×): another workload was on the server' },
      { id: 'by-name', title: 'By-name customer lookups (~60%)', status: 'skip', detail: 'not counted' },
    ]);
    expect(validityReport({ nopm: 1, validity })).toBe(
      [
        'PASS  Achieved transaction mix: neworder 43.5%',
        'WARN  Foreign load on the server: engine TPM 4600 vs 2200 (2.09×): another workload was on the server',
        'SKIP  By-name customer lookups (~60%): not counted',
        'VALIDITY WARN: 1 passed, 1 warned, 0 failed, 1 skipped',
      ].join('\n') + '\n',
    );
    expect(validityReport({ nopm: 1 })).toBeUndefined();
    expect(validityReport(undefined)).toBeUndefined();
  });
});
