import type { WaitClass } from '@sledge/protocol';

/**
 * performance_schema EVENT_NAME -> Sledge wait class, first match wins.
 * `null` marks 'idle' (the thread waits for its client: not activity).
 * `object` (OBJECT_NAME, the file of a file wait) separates redo/binlog
 * writes (Commit) from data-file IO.
 */
export const MYSQL_WAIT_RULES: ReadonlyArray<{ test: (event: string, object: string) => boolean; waitClass: WaitClass | null; why: string }> = [
  { test: (e) => e === 'idle', waitClass: null, why: 'waiting for the client' },
  {
    test: (e, o) => e.startsWith('wait/io/file/') && (/innodb_log_file|\/binlog$|\/binlog_index$/.test(e) || /ib_logfile|#ib_redo|redo/i.test(o)),
    waitClass: 'Commit',
    why: 'redo log and binary log writes and syncs',
  },
  { test: (e) => e.startsWith('wait/io/file/'), waitClass: 'IO', why: 'data and other file IO' },
  { test: (e) => e.startsWith('wait/io/table/'), waitClass: 'IO', why: 'table IO (storage engine row access)' },
  { test: (e) => e.startsWith('wait/io/socket/'), waitClass: 'Network', why: 'client socket IO' },
  { test: (e) => e.startsWith('wait/lock/'), waitClass: 'Lock', why: 'table locks and metadata locks' },
  { test: (e) => e.startsWith('wait/synch/cond/') && /lock_wait/.test(e), waitClass: 'Lock', why: 'InnoDB row lock wait' },
  // Conditions that are really a lock or a sleep, not a latch.
  { test: (e) => /^wait\/synch\/cond\/sql\/(Item_func_get_lock|User_level_lock|MDL_context::COND_wait_status)/.test(e), waitClass: 'Lock', why: 'GET_LOCK() user locks, metadata lock waits' },
  { test: (e) => /^wait\/synch\/cond\/sql\/Item_func_sleep/.test(e), waitClass: 'Timeout', why: 'SLEEP()' },
  { test: (e) => /^wait\/synch\/(mutex|rwlock|sxlock|prlock|cond)\//.test(e), waitClass: 'Latch', why: 'mutexes, rw-locks, sx-locks, conditions' },
];

/** The class of a current wait; unknown events are Other; null for idle. */
export function mysqlWaitClass(event: string, object: string | null = null): WaitClass | null {
  for (const r of MYSQL_WAIT_RULES) if (r.test(event, object ?? '')) return r.waitClass;
  return 'Other';
}

/**
 * Process-list state text -> class, for servers without performance_schema
 * (first match wins; states not listed are work in progress: CPU). The
 * state says what the thread does, not what it waits for, so this is a
 * heuristic; InnoDB row lock waits are recognised from INNODB_TRX instead
 * (their state reads "Statistics" or "Updating").
 */
export const PROCESSLIST_STATE_RULES: ReadonlyArray<{ pattern: RegExp; waitClass: WaitClass }> = [
  { pattern: /^waiting for .*lock|^locked$|^system lock$/i, waitClass: 'Lock' },
  { pattern: /^waiting for (table flush|tables)$/i, waitClass: 'Lock' },
  { pattern: /commit|^waiting for .*(binlog|flush)|semi-sync|^writing to binlog/i, waitClass: 'Commit' },
  { pattern: /^(sending to client|writing to net|reading from net|sending data to client)$/i, waitClass: 'Network' },
  { pattern: /^user sleep$|^waiting for .*timeout/i, waitClass: 'Timeout' },
  { pattern: /^waiting /i, waitClass: 'Other' },
];

/** Class of a process-list row by its state (null or empty = executing: CPU). */
export function processlistStateClass(state: string | null): WaitClass {
  const s = state?.trim() ?? '';
  if (!s) return 'CPU';
  for (const r of PROCESSLIST_STATE_RULES) if (r.pattern.test(s)) return r.waitClass;
  return 'CPU';
}
