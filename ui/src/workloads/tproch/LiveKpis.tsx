import { isTerminalStatus, type LiveJob } from '../../live/jobState.js';
import { useMemo } from 'react';
import { plannedQueries } from './jobs.js';
import { jobTproch } from './result.js';
import { timelineOf } from './timeline.js';

/** The queries a live run has finished, of those planned, and what runs now. */
export function tprochDone(live: LiveJob): { finished: number; planned: number; running: string[]; failed: number } {
  const t = timelineOf({ 'tproch-query': live.metrics['tproch-query'] ?? [], 'tproch-refresh': live.metrics['tproch-refresh'] ?? [] }, jobTproch(live.job)['mode'] !== 'power');
  const q = t.finished.filter((s) => s.op.startsWith('q'));
  return { finished: q.length, planned: plannedQueries(live.job), running: t.running.map((s) => s.label), failed: q.filter((s) => s.error).length };
}

/** The run header's live figures: queries finished of those planned, those running now, failures. */
export function TprochLiveKpis({ live }: { live: LiveJob }) {
  const qList = live.metrics['tproch-query'];
  const rList = live.metrics['tproch-refresh'];
  const d = useMemo(() => tprochDone(live), [qList, rList, live.job.config]);
  const ended = isTerminalStatus(live.job.status);
  return (
    <>
      <div title="Queries finished, of 22 per query set per stream">
        <span className="big" data-testid="live-queries">
          {d.finished} / {d.planned}
        </span>
        <span className="unit">queries done</span>
      </div>
      <div>
        <span className="big" data-testid="live-running">
          {ended || !d.running.length ? '–' : d.running.slice(0, 4).join(' ')}
        </span>
        <span className="unit">running now</span>
      </div>
      {d.failed > 0 && (
        <div>
          <span className="big bad">{d.failed}</span>
          <span className="unit">failed</span>
        </div>
      )}
    </>
  );
}
