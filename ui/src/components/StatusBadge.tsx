import type { JobStatus } from '@sledge/protocol';

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

/** Job status with an icon (HammerDB's tick/cross) and a colour class. */
export function StatusBadge({ status }: { status: JobStatus }) {
  return (
    <span className={`status status-${status}`} data-status={status}>
      <span aria-hidden="true">{ICON[status]}</span> {status}
    </span>
  );
}
