import { describe, expect, it } from 'vitest';
import { WAIT_CLASSES } from '@sledge/protocol';
import { ORACLE_WAIT_CLASS, oracleWaitClass } from './waitclass.js';

describe('Oracle wait-class table', () => {
  it('covers the thirteen Oracle wait classes and maps only to Sledge classes', () => {
    const oracle = ['Administrative', 'Application', 'Cluster', 'Commit', 'Concurrency', 'Configuration', 'Idle', 'Network', 'Other', 'Queueing', 'Scheduler', 'System I/O', 'User I/O'];
    expect(Object.keys(ORACLE_WAIT_CLASS).sort()).toEqual(oracle.sort());
    for (const c of Object.values(ORACLE_WAIT_CLASS)) if (c !== null) expect(WAIT_CLASSES).toContain(c);
  });

  it.each([
    ['User I/O', 'IO'],
    ['System I/O', 'IO'],
    ['Commit', 'Commit'],
    ['Application', 'Lock'],
    ['Concurrency', 'Latch'],
    ['Network', 'Network'],
    ['Scheduler', 'Scheduler'],
    ['Configuration', 'Configuration'],
    ['Cluster', 'Other'],
    ['Administrative', 'Other'],
    ['Queueing', 'Other'],
    ['Other', 'Other'],
    ['Some Future Class', 'Other'],
  ] as const)('WAITING %s -> %s', (oracle, sledge) => {
    expect(oracleWaitClass('WAITING', oracle)).toBe(sledge);
  });

  it('ON CPU is CPU whatever the last wait was; Idle waits are left out', () => {
    expect(oracleWaitClass('ON CPU', null)).toBe('CPU');
    expect(oracleWaitClass('ON CPU', 'User I/O')).toBe('CPU');
    expect(oracleWaitClass('WAITING', 'Idle')).toBeNull();
  });
});
