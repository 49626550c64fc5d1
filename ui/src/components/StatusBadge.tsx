import type { JobStatus } from '@sledge/protocol';
import { verdictStatus, type Verdict } from '../util/verdict.js';

const ICON: Record<JobStatus, string> = {
  queued: '◷',
  connecting: '◌',
  running: '▶',
  rampup: '↗',
  measuring: '▶',
  stopping: '■',
  completed: '✓',
  failed: '✗',
  stopped: '■',
  interrupted: '!',
};

/**
 * Job status with an icon (HammerDB's tick/cross) and a colour class. With
 * the job's verdict, a run that completed but failed its thresholds reads
 * "failed thresholds" (not a green tick), one a `:abort` threshold stopped
 * "aborted: threshold".
 */
export function StatusBadge({ status, verdict }: { status: JobStatus; verdict?: Verdict | undefined }) {
  const v = verdictStatus(status, verdict);
  if (v) {
    return (
      <span className={`status ${v.className}`} data-status={status} data-verdict={verdict!.kind} title={`${status}: ${verdict!.kind === 'aborted' ? 'stopped early by a threshold' : 'a threshold failed'}`}>
        <span aria-hidden="true">✗</span> {v.text}
      </span>
    );
  }
  return (
    <span className={`status status-${status}`} data-status={status}>
      <span aria-hidden="true">{ICON[status]}</span> {status}
    </span>
  );
}
