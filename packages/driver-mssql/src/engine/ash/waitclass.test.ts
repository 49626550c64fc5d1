import { describe, expect, it } from 'vitest';
import { WAIT_CLASSES } from '@sledge/protocol';
import { MSSQL_WAIT_RULES, mssqlRequestState, mssqlWaitClass } from './waitclass.js';

describe('SQL Server wait-class table', () => {
  it('maps only to Sledge wait classes', () => {
    for (const r of MSSQL_WAIT_RULES) expect(WAIT_CLASSES).toContain(r.waitClass);
  });

  it.each([
    ['LCK_M_X', 'Lock'],
    ['LCK_M_U', 'Lock'],
    ['LCK_M_IX', 'Lock'],
    ['LCK_M_SCH_M', 'Lock'],
    ['PAGEIOLATCH_SH', 'IO'],
    ['PAGEIOLATCH_EX', 'IO'],
    ['IO_COMPLETION', 'IO'],
    ['PAGELATCH_EX', 'Latch'],
    ['PAGELATCH_UP', 'Latch'],
    ['LATCH_EX', 'Latch'],
    ['WRITELOG', 'Commit'],
    ['HADR_SYNC_COMMIT', 'Commit'],
    ['LOGBUFFER', 'Commit'],
    ['ASYNC_NETWORK_IO', 'Network'],
    ['CXPACKET', 'IPC'],
    ['CXCONSUMER', 'IPC'],
    ['CXSYNC_PORT', 'IPC'],
    ['SOS_SCHEDULER_YIELD', 'Scheduler'],
    ['THREADPOOL', 'Scheduler'],
    ['WAITFOR', 'Timeout'],
    ['RESOURCE_SEMAPHORE', 'Other'],
    ['PREEMPTIVE_OS_WRITEFILEGATHER', 'Other'],
    ['lck_m_s', 'Lock'],
  ] as const)('%s -> %s', (w, c) => {
    expect(mssqlWaitClass(w)).toBe(c);
  });

  it('running without a wait is CPU; runnable is Scheduler; sleeping is not activity', () => {
    expect(mssqlRequestState('running', null, 'WRITELOG')).toEqual({ waitClass: 'CPU', event: 'CPU' });
    expect(mssqlRequestState('runnable', null, 'SOS_SCHEDULER_YIELD')).toEqual({ waitClass: 'Scheduler', event: 'SOS_SCHEDULER_YIELD' });
    expect(mssqlRequestState('runnable', null, 'PAGELATCH_SH')).toEqual({ waitClass: 'Scheduler', event: 'runnable' });
    expect(mssqlRequestState('suspended', 'LCK_M_U', null)).toEqual({ waitClass: 'Lock', event: 'LCK_M_U' });
    expect(mssqlRequestState('suspended', null, 'WRITELOG')).toEqual({ waitClass: 'Other', event: 'WRITELOG' });
    expect(mssqlRequestState('sleeping', null, null)).toBeNull();
    expect(mssqlRequestState('background', 'LAZYWRITER_SLEEP', null)).toBeNull();
  });
});
