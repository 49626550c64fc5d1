import type { WaitClass } from '@sledge/protocol';

/**
 * Oracle WAIT_CLASS -> Sledge wait class. `null`: Idle waits are not
 * activity and are left out. A session ON CPU is CPU.
 */
export const ORACLE_WAIT_CLASS: Readonly<Record<string, WaitClass | null>> = {
  'User I/O': 'IO',
  'System I/O': 'IO',
  Commit: 'Commit',
  // Row locks (enq: TX - row lock contention) and other application enqueues.
  Application: 'Lock',
  // Latches, mutexes, buffer busy waits.
  Concurrency: 'Latch',
  Network: 'Network',
  // Resource Manager CPU quantum.
  Scheduler: 'Scheduler',
  // Log file switch, free buffer waits ...
  Configuration: 'Configuration',
  Cluster: 'Other',
  Administrative: 'Other',
  Queueing: 'Other',
  Other: 'Other',
  Idle: null,
};

/** The class of a session: ON CPU -> CPU; a wait by its wait class (unknown ones Other); null when idle. */
export function oracleWaitClass(sessionState: string, waitClass: string | null): WaitClass | null {
  if (sessionState.toUpperCase() === 'ON CPU' || !waitClass) return 'CPU';
  const c = ORACLE_WAIT_CLASS[waitClass];
  return c === undefined ? 'Other' : c;
}
