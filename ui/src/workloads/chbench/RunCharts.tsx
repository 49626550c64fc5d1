import { useMemo } from 'react';
import { EChart } from '../../charts/EChart.js';
import { tcountOption } from '../../charts/options/tcount.js';
import { paletteFor } from '../../charts/options/palette.js';
import { ClientRatesCard, LatencyCard, useRunChartFrame } from '../../components/OpCharts.js';
import type { LiveJob } from '../../live/jobState.js';
import { useNow } from '../../state/throttle.js';
import { useTheme } from '../../theme.js';
import { chartableEngine } from '../../util/runProgress.js';
import { TproccErrorsCard, useDisruptionMarks } from '../tprocc/ErrorsCard.js';
import { refreshSec } from '../tprocc/jobs.js';
import { TPROCC_OPS } from '../tprocc/ops.js';
import { useTpmLabel } from '../tprocc/RunCharts.js';
import { timelineOption } from '../tproch/charts.js';
import { AnalyticTable } from './AnalyticTable.js';
import { CHBENCH_QUERY_METRIC, analyticTimeline, queryStats, streamProgress } from './analytic.js';
import { completedOption, queryMeansOption } from './charts.js';
import { chbenchAnalytic, jobStreams } from './result.js';

const ROW_PX = 34;
const wide = { gridColumn: '1 / -1' } as const;

/**
 * A CH-benCHmark run, live or stored: TPROC-C's NOPM and TPM beside the
 * analytic queries each stream completed (same time axis, zoomed together)
 * and the analytic query times; each stream's queries as a timeline
 * (TPROC-H's); TPROC-C's client rates, latency and errors; once there is a
 * result, the per-query table of the measured window.
 */
export function ChbenchRunCharts({ live }: { live: LiveJob }) {
  const palette = paletteFor(useTheme());
  const { job } = live;
  const { range, group, ended } = useRunChartFrame(live);
  const now = useNow(1000, !ended);
  const label = useTpmLabel(live);
  const engine = useMemo(() => chartableEngine(live.engine, ended), [live.engine, ended]);
  const marks = useDisruptionMarks(live);
  const tc = useMemo(() => tcountOption({ engine, tpmLabel: label, range, palette, marks }), [engine, label, range, palette, marks]);
  const qList = live.metrics[CHBENCH_QUERY_METRIC];
  const progress = useMemo(() => streamProgress(qList), [qList]);
  const completed = useMemo(() => completedOption(progress, range, palette), [progress, range, palette]);
  const result = chbenchAnalytic(job);
  const stats = useMemo(() => result?.perQuery ?? queryStats(qList), [result, qList]);
  const means = useMemo(() => queryMeansOption(stats, palette, result?.geomean), [stats, palette, result]);
  const timeline = useMemo(() => analyticTimeline(qList), [qList]);
  const tl = useMemo(() => timelineOption(timeline, palette, ended ? (timeline.to ?? now) : now), [timeline, palette, ended, now]);
  const streams = jobStreams(job);
  const done = progress.reduce((a, s) => a + s.completed, 0);
  return (
    <div className="charts run-charts chbench-charts">
      <section className="card">
        <div className="card-head">
          <h3>NOPM and TPM per minute</h3>
          <span className="muted small" title="NOPM from the engine's new orders; TPM from its transaction counter (SQLite: counted by Sledge)">
            every {String(refreshSec(job))} s
          </span>
        </div>
        <EChart option={tc} group={group} label={`NOPM and ${label} over time`} testId="chart-tcount" />
      </section>
      <section className="card">
        <div className="card-head">
          <h3>Analytic queries completed</h3>
          <span className="muted small" data-testid="analytic-status">
            {streams === 0 ? 'no analytic streams' : `${done} by ${streams} stream${streams === 1 ? '' : 's'}`}
          </span>
        </div>
        <EChart option={completed} group={group} label="Analytic queries completed by each stream over time" testId="chart-analytic-completed" data={{ streams: progress.length, completed: done }} />
      </section>
      <section className="card">
        <div className="card-head">
          <h3>Analytic query times</h3>
          <span className="muted small">{result ? 'mean s in the window · dashed: geomean' : 'mean s so far'}</span>
        </div>
        <EChart option={means} label="Mean seconds of each analytic query" testId="chart-analytic-times" />
      </section>
      {streams > 0 && (
        <section className="card" style={wide}>
          <div className="card-head">
            <h3>Analytic streams</h3>
            <span className="muted small" data-testid="analytic-running">
              {!ended && timeline.running.length ? `running: ${timeline.running.map((s) => `${s.label} (stream ${s.stream})`).join(', ')}` : 'each query a bar from its start to its end'}
            </span>
          </div>
          {timeline.rows.length ? (
            <EChart
              option={tl}
              label="Timeline of each analytic stream: one bar per query from its start to its end"
              testId="chbench-timeline"
              height={Math.max(120, timeline.rows.length * ROW_PX + 56)}
              data={{ rows: timeline.rows.length, running: timeline.running.length }}
            />
          ) : (
            <p className="muted" data-testid="timeline-empty">
              {ended ? 'No analytic query was recorded for this job.' : 'Waiting for the first analytic query…'}
            </p>
          )}
        </section>
      )}
      {result && (
        <section className="card" style={wide} aria-labelledby={`aq-h-${job.id}`}>
          <div className="card-head">
            <h3 id={`aq-h-${job.id}`}>Analytic queries in the measured window</h3>
            <span className="muted small">
              {result.completedQueries} completed by {result.streams} stream{result.streams === 1 ? '' : 's'}; {result.queries.length} ran in all (rampup included)
            </span>
          </div>
          <AnalyticTable perQuery={result.perQuery} />
        </section>
      )}
      <ClientRatesCard live={live} ops={TPROCC_OPS} range={range} group={group} palette={palette} />
      <LatencyCard live={live} ops={TPROCC_OPS} range={range} group={group} palette={palette} />
      <TproccErrorsCard live={live} />
    </div>
  );
}
