import { describe, expect, it } from 'vitest';
import { WAIT_CLASSES } from '@sledge/protocol';
import { PG_BACKGROUND_IDLE_TYPES, PG_WAIT_EVENT_CLASS, PG_WAIT_TYPE_CLASS, pgWaitClass } from './waitclass.js';

describe('PostgreSQL wait-class table', () => {
  it('maps only to Sledge wait classes', () => {
    for (const c of Object.values(PG_WAIT_TYPE_CLASS)) if (c !== null) expect(WAIT_CLASSES).toContain(c);
    for (const c of Object.values(PG_WAIT_EVENT_CLASS)) expect(WAIT_CLASSES).toContain(c);
  });

  it('covers every wait_event_type of PostgreSQL 10-18 and pgsentinel', () => {
    for (const t of ['Activity', 'BufferPin', 'Client', 'Extension', 'IO', 'IPC', 'Lock', 'LWLock', 'Timeout', 'InjectionPoint', 'CPU']) {
      expect(PG_WAIT_TYPE_CLASS, t).toHaveProperty(t);
    }
  });

  it.each([
    ['IO', 'DataFileRead', 'IO'],
    ['IO', 'DataFileExtend', 'IO'],
    ['IO', 'BufFileWrite', 'IO'],
    ['IO', 'WALWrite', 'Commit'],
    ['IO', 'WALSync', 'Commit'],
    ['IO', 'WALInitSync', 'Commit'],
    ['IO', 'WALRead', 'IO'],
    ['LWLock', 'WALWrite', 'Commit'],
    ['LWLock', 'WALInsert', 'Latch'],
    ['LWLock', 'BufferContent', 'Latch'],
    ['LWLock', 'LockManager', 'Latch'],
    ['BufferPin', 'BufferPin', 'Latch'],
    ['Lock', 'transactionid', 'Lock'],
    ['Lock', 'tuple', 'Lock'],
    ['Lock', 'relation', 'Lock'],
    ['Client', 'ClientRead', 'Client'],
    ['Client', 'ClientWrite', 'Client'],
    ['IPC', 'SyncRep', 'Commit'],
    ['IPC', 'BgWorkerShutdown', 'IPC'],
    ['IPC', 'ParallelFinish', 'IPC'],
    ['Timeout', 'PgSleep', 'Timeout'],
    ['Timeout', 'VacuumDelay', 'Timeout'],
    ['Extension', 'Extension', 'Other'],
    ['CPU', 'CPU', 'CPU'],
    ['SomethingNew', 'X', 'Other'],
  ] as const)('foreground %s:%s -> %s', (type, event, cls) => {
    expect(pgWaitClass(type, event, false)).toBe(cls);
  });

  it('no wait is CPU, for foreground and background alike', () => {
    expect(pgWaitClass(null, null, false)).toBe('CPU');
    expect(pgWaitClass(null, null, true)).toBe('CPU');
  });

  it('leaves out background idle loops (Activity, Extension) but keeps their real waits', () => {
    for (const t of PG_BACKGROUND_IDLE_TYPES) expect(pgWaitClass(t, 'CheckpointerMain', true)).toBeNull();
    expect(pgWaitClass('Activity', 'WalWriterMain', true)).toBeNull();
    expect(pgWaitClass('Extension', 'Extension', true)).toBeNull();
    expect(pgWaitClass('IO', 'DataFileWrite', true)).toBe('IO');
    expect(pgWaitClass('IO', 'WALWrite', true)).toBe('Commit');
    expect(pgWaitClass('Timeout', 'CheckpointWriteDelay', true)).toBe('Timeout');
  });
});
