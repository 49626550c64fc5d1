import { isTerminalStatus, type LiveJob } from '../../live/jobState.js';
import { fmtInt } from '../../util/format.js';
import { chartableEngine } from '../../util/runProgress.js';
import { refreshSec } from './jobs.js';
import { useTpmLabel } from './RunCharts.js';

/** The run header's live figures: the latest NOPM and TPM of the engine's transaction counter. */
export function TproccLiveKpis({ live }: { live: LiveJob }) {
  const engine = chartableEngine(live.engine, isTerminalStatus(live.job.status));
  const last = engine[engine.length - 1];
  const tpm = useTpmLabel(live);
  const refresh = refreshSec(live.job);
  return (
    <>
      <div title={`Last ${refresh} s of the engine's transaction counter`}>
        <span className="big" data-testid="live-nopm">
          {last ? fmtInt(last.nopm) : '–'}
        </span>
        <span className="unit">NOPM now</span>
      </div>
      <div title={`Last ${refresh} s of the engine's transaction counter`}>
        <span className="big" data-testid="live-tpm">
          {last ? fmtInt(last.tpm) : '–'}
        </span>
        <span className="unit">{tpm} now</span>
      </div>
    </>
  );
}
