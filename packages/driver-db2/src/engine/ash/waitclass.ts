import type { WaitClass } from '@sledge/protocol';

/**
 * Db2 agent event (EVENT_TYPE + EVENT_OBJECT of MON_GET_AGENT) -> Sledge
 * wait class, keyed "<EVENT_TYPE> <EVENT_OBJECT>". `null`: the agent waits
 * for its client's next request, i.e. the session is idle.
 *
 * MON_GET_AGENT reports lock, queue and remote waits; it has no event for
 * page reads or log writes, so an agent doing I/O shows as EXECUTING (CPU
 * here). That is a limit of the source, not a choice.
 */
export const DB2_EVENT_CLASS: Readonly<Record<string, WaitClass | null>> = {
  'WAIT REQUEST': null,
  'PROCESS REQUEST': 'CPU',
  'PROCESS ROUTINE': 'CPU',
  'PROCESS INDEX_RECREATE': 'CPU',
  'PROCESS COMP_DICT_BLD': 'CPU',
  'PROCESS IMPLICIT_REBIND': 'CPU',
  'ACQUIRE LOCK': 'Lock',
  'PROCESS LOCK_ESCALATION': 'Lock',
  // Queued by a workload-management threshold (concurrency limit).
  'WAIT WLM_QUEUE': 'Scheduler',
  'WAIT QP_QUEUE': 'Scheduler',
  // Waiting for another member (DPF / pureScale) to process a request.
  'WAIT REMOTE_REQUEST': 'IPC',
  // Waiting for a fenced routine (db2fmp) to answer.
  'WAIT ROUTINE': 'IPC',
};

/**
 * Class and event of an agent. Known type/object pairs come from the table;
 * otherwise EXECUTING is CPU and an unknown wait is Other. null when idle.
 */
export function db2AgentState(eventState: string, eventType: string | null, eventObject: string | null): { waitClass: WaitClass; event: string } | null {
  const state = eventState.toUpperCase();
  const key = `${(eventType ?? '').toUpperCase()} ${(eventObject ?? '').toUpperCase()}`.trim();
  const known = DB2_EVENT_CLASS[key];
  if (known === null) return null;
  const waitClass: WaitClass = known ?? (state === 'EXECUTING' ? 'CPU' : 'Other');
  return { waitClass, event: waitClass === 'CPU' ? 'CPU' : key || state };
}
