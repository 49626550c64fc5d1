import type { WaitClass } from '@sledge/protocol';

/**
 * PostgreSQL wait_event_type -> Sledge wait class. `null` marks the idle main
 * loops of background processes (Activity): they are not activity and are
 * left out of ASH. 'CPU' is what pgsentinel writes for an active session
 * that waits on nothing (pg_stat_activity leaves both columns NULL).
 */
export const PG_WAIT_TYPE_CLASS: Readonly<Record<string, WaitClass | null>> = {
  CPU: 'CPU',
  IO: 'IO',
  Lock: 'Lock',
  LWLock: 'Latch',
  // PostgreSQL 9.6 split LWLock into these two types.
  LWLockNamed: 'Latch',
  LWLockTranche: 'Latch',
  BufferPin: 'Latch',
  Client: 'Client',
  IPC: 'IPC',
  Timeout: 'Timeout',
  Extension: 'Other',
  InjectionPoint: 'Other',
  Activity: null,
};

/**
 * Events whose class is not their type's, keyed "<type>:<event>": the WAL
 * writes and flushes a commit waits for, and synchronous replication, are
 * Commit time (Oracle's log file sync), not data-file IO or IPC.
 */
export const PG_WAIT_EVENT_CLASS: Readonly<Record<string, WaitClass>> = {
  'IO:WALWrite': 'Commit',
  'IO:WALSync': 'Commit',
  'IO:WALInitWrite': 'Commit',
  'IO:WALInitSync': 'Commit',
  'IO:WALSyncMethodAssign': 'Commit',
  'LWLock:WALWrite': 'Commit',
  'LWLock:WALWriteLock': 'Commit',
  'LWLockNamed:WALWriteLock': 'Commit',
  'IPC:SyncRep': 'Commit',
};

/**
 * Wait types that are idle loops when a background process (checkpointer,
 * walwriter, an extension's worker such as pgsentinel itself) waits in them.
 * A client backend in an Extension wait is doing work for a query: Other.
 */
export const PG_BACKGROUND_IDLE_TYPES: ReadonlySet<string> = new Set(['Activity', 'Extension']);

/**
 * Wait types in which a background process sleeps on purpose between bursts
 * of work (Timeout: CheckpointWriteDelay spreading a checkpoint,
 * VacuumDelay/VacuumTruncate cost delays, RecoveryApplyDelay ...): not
 * activity by the ASH convention; samples are marked `idle` and kept only
 * when a job asks for background sleeps.
 */
export const PG_BACKGROUND_SLEEP_TYPES: ReadonlySet<string> = new Set(['Timeout']);

/** Is this wait a background process's deliberate sleep? */
export function isBackgroundSleep(type: string | null, background: boolean): boolean {
  return background && type !== null && PG_BACKGROUND_SLEEP_TYPES.has(type);
}

/**
 * The class of a wait, or null when the wait is an idle loop (not counted).
 * `type` null (no wait) is CPU. Unknown types (a newer server) are Other.
 */
export function pgWaitClass(type: string | null, event: string | null, background: boolean): WaitClass | null {
  if (type === null || type === '') return 'CPU';
  if (background && PG_BACKGROUND_IDLE_TYPES.has(type)) return null;
  const byEvent = event === null ? undefined : PG_WAIT_EVENT_CLASS[`${type}:${event}`];
  if (byEvent !== undefined) return byEvent;
  const byType = PG_WAIT_TYPE_CLASS[type];
  return byType === undefined ? 'Other' : byType;
}
