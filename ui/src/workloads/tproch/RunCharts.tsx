import { useMemo } from 'react';
import { EChart } from '../../charts/EChart.js';
import { paletteFor } from '../../charts/options/palette.js';
import { isTerminalStatus, type LiveJob } from '../../live/jobState.js';
import { useNow } from '../../state/throttle.js';
import { useTheme } from '../../theme.js';
import { queryBarsOption, timelineOption } from './charts.js';
import { QueryTable } from './QueryTable.js';
import { jobTproch, tprochResult } from './result.js';
import { plansOf, profilesOf, timelineOf, type Timeline } from './timeline.js';

/** The timeline's row height (px) and its room for the axis. */
const ROW_PX = 34;

/**
 * A TPROC-H run, live or stored: the timeline of each stream (each query a
 * bar from start to end, the refresh stream beside them), the query times as
 * bars (as they finish while the run is live; from the result after), and
 * the query table with each query's plan.
 */
/** The first stream's first finished query bar: its drawn width and its own time in ms (tests and assistive text). */
function firstBar(t: Timeline): Record<string, number> {
  const q = t.rows[0]?.segments.find((s) => s.op.startsWith('q') && s.end !== undefined && s.seconds !== undefined);
  return q ? { 'first-bar-ms': Math.round(q.end! - q.start), 'first-query-ms': Math.round(q.seconds! * 1000), 'first-bar-offset-ms': Math.round(q.start - (t.from ?? q.start)) } : {};
}

export function TprochRunCharts({ live }: { live: LiveJob }) {
  const palette = paletteFor(useTheme());
  const { job } = live;
  const active = !isTerminalStatus(job.status);
  const now = useNow(1000, active);
  const throughput = jobTproch(job)['mode'] !== 'power';
  const qList = live.metrics['tproch-query'];
  const rList = live.metrics['tproch-refresh'];
  const pList = live.metrics['tproch-plan'];
  const timeline = useMemo(() => timelineOf({ 'tproch-query': qList ?? [], 'tproch-refresh': rList ?? [] }, throughput), [qList, rList, throughput]);
  const plans = useMemo(() => plansOf({ 'tproch-plan': pList ?? [] }), [pList]);
  const prList = live.metrics['tproch-profile'];
  const profiles = useMemo(() => profilesOf({ 'tproch-profile': prList ?? [] }), [prList]);
  const result = tprochResult(job);
  const tl = useMemo(() => timelineOption(timeline, palette, active ? now : (timeline.to ?? now)), [timeline, palette, active, now]);
  // Bars: the result's last query set once there is one; while live, each query as it finishes (its latest execution per stream).
  const times = useMemo(() => {
    if (result) {
      const last = Math.max(...result.queries.map((q) => q.set), 1);
      return result.queries.filter((q) => q.set === last);
    }
    const latest = new Map<string, { stream: number; query: number; seconds: number; rows: number; error?: string }>();
    for (const s of timeline.finished) {
      if (!s.op.startsWith('q')) continue;
      latest.set(`${s.stream}|${s.op}`, { stream: s.stream, query: Number(s.op.slice(1)), seconds: s.seconds ?? ((s.end ?? s.start) - s.start) / 1000, rows: s.rows ?? 0, ...(s.error ? { error: s.error } : {}) });
    }
    return [...latest.values()];
  }, [result, timeline]);
  const bars = useMemo(() => queryBarsOption(times, palette, result?.geomean), [times, palette, result]);
  const doneQueries = timeline.finished.filter((s) => s.op.startsWith('q')).length;
  return (
    <div className="charts run-charts tproch-charts">
      <section className="card wide">
        <div className="card-head">
          <h3>Query streams</h3>
          <span className="muted small" data-testid="timeline-status">
            {doneQueries} quer{doneQueries === 1 ? 'y' : 'ies'} finished
            {timeline.running.length ? ` · running: ${timeline.running.map((s) => `${s.label}${s.op.startsWith('rf') ? '' : ` (${s.stream === 0 ? 'power' : `stream ${s.stream}`})`}`).join(', ')}` : ''}
          </span>
        </div>
        {timeline.rows.length ? (
          <EChart
            option={tl}
            label="Timeline of each query stream: one bar per query from its start to its end"
            testId="tproch-timeline"
            height={Math.max(120, timeline.rows.length * ROW_PX + 56)}
            data={{ rows: timeline.rows.length, running: timeline.running.length, ...firstBar(timeline) }}
          />
        ) : (
          <p className="muted" data-testid="timeline-empty">
            {active ? 'Waiting for the first query…' : 'No query was recorded for this job.'}
          </p>
        )}
      </section>
      <section className="card wide">
        <div className="card-head">
          <h3>Query times</h3>
          <span className="muted small">{result ? 'seconds per query; dashed: the geometric mean' : 'seconds, as each query finishes'}</span>
        </div>
        <EChart option={bars} label="Seconds per query, one bar per query and stream" testId="tproch-query-bars" height={280} />
      </section>
      {result && (
        <section className="card wide" aria-labelledby={`qt-h-${job.id}`}>
          <div className="card-head">
            <h3 id={`qt-h-${job.id}`}>Query times by stream</h3>
            <span className="muted small">
              {plans.size ? `EXPLAIN plans of ${plans.size} queries stored with the job` : 'a query\'s plan opens from its row'}
              {profiles.size ? `; the engine's profile (operator timings) of ${profiles.size} queries beside them` : ''}
            </span>
          </div>
          <QueryTable jobId={job.id} queries={result.queries} plans={plans} profiles={profiles} />
        </section>
      )}
    </div>
  );
}
