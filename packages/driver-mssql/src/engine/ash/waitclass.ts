import type { WaitClass } from '@sledge/protocol';

/**
 * SQL Server wait_type -> Sledge wait class, first match wins: exact names,
 * then prefixes (`LCK_M_` covers LCK_M_X, LCK_M_U, LCK_M_IX ...). Anything
 * not listed is Other. Query Store's wait categories group the same way
 * (Lock, Buffer IO, Buffer Latch, Tran Log IO, Network IO, Parallelism).
 */
export const MSSQL_WAIT_RULES: ReadonlyArray<{ match: string; prefix: boolean; waitClass: WaitClass }> = [
  // Runnable: waiting for a scheduler (CPU wait), or for a worker thread.
  { match: 'SOS_SCHEDULER_YIELD', prefix: false, waitClass: 'Scheduler' },
  { match: 'THREADPOOL', prefix: false, waitClass: 'Scheduler' },
  // Row, page and table locks.
  { match: 'LCK_M_', prefix: true, waitClass: 'Lock' },
  // Data pages read from or written to disk; other file IO.
  { match: 'PAGEIOLATCH_', prefix: true, waitClass: 'IO' },
  { match: 'IO_COMPLETION', prefix: false, waitClass: 'IO' },
  { match: 'ASYNC_IO_COMPLETION', prefix: false, waitClass: 'IO' },
  { match: 'WRITE_COMPLETION', prefix: false, waitClass: 'IO' },
  // In-memory page latches and other latches.
  { match: 'PAGELATCH_', prefix: true, waitClass: 'Latch' },
  { match: 'LATCH_', prefix: true, waitClass: 'Latch' },
  // Transaction log flushes at commit, synchronous availability-group commit.
  { match: 'WRITELOG', prefix: false, waitClass: 'Commit' },
  { match: 'LOGBUFFER', prefix: false, waitClass: 'Commit' },
  { match: 'HADR_SYNC_COMMIT', prefix: false, waitClass: 'Commit' },
  // The client does not read its results fast enough.
  { match: 'ASYNC_NETWORK_IO', prefix: false, waitClass: 'Network' },
  // Parallel query exchange (CXPACKET, CXCONSUMER, CXSYNC_PORT ...).
  { match: 'CX', prefix: true, waitClass: 'IPC' },
  // WAITFOR DELAY.
  { match: 'WAITFOR', prefix: false, waitClass: 'Timeout' },
];

/** The class of a wait type; unknown waits are Other. */
export function mssqlWaitClass(waitType: string): WaitClass {
  const w = waitType.toUpperCase();
  for (const r of MSSQL_WAIT_RULES) if (r.prefix ? w.startsWith(r.match) : w === r.match) return r.waitClass;
  return 'Other';
}

/**
 * Class and event of a request: `running` with no wait is on CPU;
 * `runnable` waits for a CPU (Scheduler); otherwise its wait type decides.
 * null for statuses that are not activity (sleeping, background).
 */
export function mssqlRequestState(status: string, waitType: string | null, lastWaitType: string | null): { waitClass: WaitClass; event: string } | null {
  const st = status.toLowerCase();
  if (st === 'sleeping' || st === 'background') return null;
  if (waitType) return { waitClass: mssqlWaitClass(waitType), event: waitType };
  if (st === 'runnable') return { waitClass: 'Scheduler', event: lastWaitType === 'SOS_SCHEDULER_YIELD' ? 'SOS_SCHEDULER_YIELD' : 'runnable' };
  if (st === 'running' || st === 'rollback' || st === 'spinloop') return { waitClass: 'CPU', event: 'CPU' };
  // suspended (or pending) without a wait type: the wait has just ended or not yet begun.
  return { waitClass: 'Other', event: lastWaitType ?? st };
}
