import { isTerminalStatus, type LiveJob } from '../../live/jobState.js';
import { fmtNum } from '../../util/format.js';
import { chartableClient } from '../../util/runProgress.js';

/** The run header's live figure: script executions per second of the latest client sample. */
export function ScriptLiveKpis({ live }: { live: LiveJob }) {
  const client = chartableClient(live.client, isTerminalStatus(live.job.status));
  const last = client[client.length - 1];
  return (
    <div title="Script executions committed per second, latest client sample">
      <span className="big" data-testid="live-tps">
        {last ? fmtNum(last.commits, 1) : '–'}
      </span>
      <span className="unit">TPS now</span>
    </div>
  );
}
