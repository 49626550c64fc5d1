import { describe, expect, it } from 'vitest';
import { WAIT_CLASSES } from '@sledge/protocol';
import { DB2_EVENT_CLASS, db2AgentState } from './waitclass.js';

describe('Db2 agent-event table', () => {
  it('maps only to Sledge wait classes', () => {
    for (const c of Object.values(DB2_EVENT_CLASS)) if (c !== null) expect(WAIT_CLASSES).toContain(c);
  });

  it.each([
    ['EXECUTING', 'PROCESS', 'REQUEST', 'CPU', 'CPU'],
    ['EXECUTING', 'PROCESS', 'ROUTINE', 'CPU', 'CPU'],
    ['IDLE', 'ACQUIRE', 'LOCK', 'Lock', 'ACQUIRE LOCK'],
    ['EXECUTING', 'PROCESS', 'LOCK_ESCALATION', 'Lock', 'PROCESS LOCK_ESCALATION'],
    ['IDLE', 'WAIT', 'WLM_QUEUE', 'Scheduler', 'WAIT WLM_QUEUE'],
    ['IDLE', 'WAIT', 'REMOTE_REQUEST', 'IPC', 'WAIT REMOTE_REQUEST'],
    ['IDLE', 'WAIT', 'ROUTINE', 'IPC', 'WAIT ROUTINE'],
    ['EXECUTING', 'PROCESS', 'SOMETHING_NEW', 'CPU', 'CPU'],
    ['IDLE', 'WAIT', 'SOMETHING_NEW', 'Other', 'WAIT SOMETHING_NEW'],
  ] as const)('%s %s %s -> %s', (state, type, object, cls, event) => {
    expect(db2AgentState(state, type, object)).toEqual({ waitClass: cls, event });
  });

  it('an agent waiting for its client is idle (left out)', () => {
    expect(db2AgentState('IDLE', 'WAIT', 'REQUEST')).toBeNull();
    expect(db2AgentState('idle', 'wait', 'request')).toBeNull();
  });
});
