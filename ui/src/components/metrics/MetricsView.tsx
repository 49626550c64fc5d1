import { useCallback, useMemo, useState } from 'react';
import { isTerminalStatus, type LiveJob } from '../../live/jobState.js';
import { ashOption, ashPointCount } from '../../charts/options/ash.js';
import { paletteFor } from '../../charts/options/palette.js';
import { metricsTimeRange } from '../../charts/options/range.js';
import { EChart } from '../../charts/EChart.js';
import { presentClasses, sqlActivity, sqlForEvent } from '../../metrics/ash.js';
import { databaseAgent, vcpusOf } from '../../metrics/cpu.js';
import { latestStatuses, phasesOf, samplerStatuses } from '../../metrics/samples.js';
import { useThrottled } from '../../state/throttle.js';
import { useTheme } from '../../theme.js';
import { fmtDuration, fmtInt, localTime } from '../../util/format.js';
import { AshChart } from './AshChart.js';
import { CpuAgent } from './CpuPanel.js';
import { SamplerStatusList } from './SamplerStatus.js';
import { TopEvents, TopSessions, TopSql, type EventKey } from './TopTables.js';
import { useAshData, useCpuData, useTops } from './useMetricsData.js';

type Selection = readonly [number, number] | null;

const targetHost = (live: LiveJob): string | undefined => {
  const t = (live.job.config as { target?: { host?: unknown } } | null)?.target;
  return typeof t?.host === 'string' ? t.host : undefined;
};

/**
 * The Metrics view of a job (issue 5), live or from the store: average
 * active sessions by wait class with the vCPU line and the job's phases;
 * brush a time range to recompute top events, SQL and sessions; click an
 * event to see its SQL, a SQL to see its activity over time; CPU per agent
 * (all-CPU time by kind and a per-core heat strip) on the same time axis.
 *
 * Drilldowns (an event's SQL, a SQL's activity) are computed in the page
 * from the samples it holds (the snapshot's and the live frames'); the tops
 * of a brushed range come from the server (GET /jobs/{id}/ash?from&to).
 */
export function MetricsView({ live: current }: { live: LiveJob }) {
  const active = !isTerminalStatus(current.job.status);
  // Recompute at most once a second while the job streams.
  const live = useThrottled(current, active ? 1000 : 0);
  const palette = paletteFor(useTheme());
  const ash = useAshData(live);
  const cpu = useCpuData(live);
  const [selection, setSelection] = useState<Selection>(null);
  const [event, setEvent] = useState<EventKey | null>(null);
  const [sqlId, setSqlId] = useState<string | null>(null);
  const tops = useTops(live, ash, selection);
  const group = `metrics-${live.job.id}`;

  const phaseList = live.metrics['phase'];
  const phases = useMemo(() => {
    const inPage = phasesOf({ phase: phaseList ?? [] });
    return inPage.length ? inPage : (ash.base?.phases ?? []);
  }, [phaseList, ash.base]);
  const statusList = live.metrics['sampler'];
  const statuses = useMemo(() => {
    const inPage = samplerStatuses({ sampler: statusList ?? [] });
    return latestStatuses(inPage.length ? inPage : (ash.base?.status ?? []));
  }, [statusList, ash.base]);
  const classes = useMemo(() => presentClasses(ash.series), [ash.series]);

  const agents = useMemo(() => [...new Set([...Object.keys(cpu.sources), ...Object.keys(cpu.systems)])].sort(), [cpu]);
  const dbAgent = databaseAgent(agents, cpu.systems, targetHost(live));
  const vcpuCount = dbAgent ? vcpusOf(cpu.sources[dbAgent], cpu.systems[dbAgent]) : ash.base?.vcpus;
  const vcpus = useMemo(() => (vcpuCount ? { count: vcpuCount, label: `${vcpuCount} vCPU${dbAgent ? ` · ${dbAgent}` : ''}` } : undefined), [vcpuCount, dbAgent]);

  const { buckets, bucketMs } = ash.series;
  const stamps: number[] = [];
  if (buckets.length) stamps.push(buckets[0]!.ts, buckets[buckets.length - 1]!.ts + bucketMs);
  for (const s of Object.values(cpu.sources)) if (s.length) stamps.push(s[0]!.ts, s[s.length - 1]!.ts);
  const raw = metricsTimeRange(live.job, stamps, Date.now());
  // Stable while the window does not move, so unchanged charts are not rebuilt.
  const range = useMemo(() => raw, [raw?.min, raw?.max]);
  // The last phase lasts until the job ended, or until now while it runs.
  const phaseEnd = live.job.endedAt ? Date.parse(live.job.endedAt) : Math.min(range?.max ?? Infinity, Date.now());

  const option = useMemo(() => ashOption({ series: ash.series, classes, vcpus, phases, phaseEnd, range, palette, brush: true }), [ash.series, classes, vcpus, phases, phaseEnd, range, palette]);

  const onSelect = useCallback((s: Selection) => setSelection(s), []);
  const selRange = useMemo(() => (selection ? { from: selection[0], to: selection[1] } : {}), [selection]);
  const sqlRows = useMemo(() => (event ? sqlForEvent(ash.samples, event.waitClass, event.event, selRange) : (tops.tops?.topSql ?? [])), [event, ash.samples, selRange, tops.tops]);
  const anchor = buckets[0]?.ts;
  const activity = useMemo(() => (sqlId ? sqlActivity(ash.samples, sqlId, selRange, { bucketMs, ...(anchor !== undefined ? { anchor } : {}) }) : null), [sqlId, ash.samples, selRange, bucketMs, anchor]);
  const activityClasses = useMemo(() => (activity ? presentClasses(activity) : []), [activity]);
  const activityOption = useMemo(
    () => (activity ? ashOption({ series: activity, classes: activityClasses, phases: [], phaseEnd, range: selection ? { min: selection[0], max: selection[1] } : range, palette, height: 'small' }) : null),
    [activity, activityClasses, phaseEnd, selection, range, palette],
  );
  const sqlText = sqlId ? (sqlRows.find((q) => q.sqlId === sqlId)?.sql ?? tops.tops?.topSql.find((q) => q.sqlId === sqlId)?.sql ?? sqlId) : '';

  const hasAsh = buckets.length > 0 || ash.samples.length > 0;
  const tableMeta = { source: tops.source, range: selection ? `${selection[0]}-${selection[1]}` : 'all', version: tops.version, loading: String(tops.loading) };
  const pageNote = !ash.complete ? ` (from the ${fmtInt(ash.samples.length)} samples this page holds)` : '';

  return (
    <div className="metrics-view" data-testid="metrics-view">
      <SamplerStatusList statuses={statuses} />
      <section className="card" aria-labelledby={`ash-h-${live.job.id}`}>
        <div className="card-head">
          <h3 id={`ash-h-${live.job.id}`}>Active sessions by wait class</h3>
          <span className="range-label" data-testid="ash-range-label">
            {selection ? (
              <>
                Selected {localTime(selection[0])} – {localTime(selection[1])} ({fmtDuration(selection[1] - selection[0])}){' '}
                <button type="button" className="small" onClick={() => setSelection(null)} data-testid="clear-selection">
                  Clear selection
                </button>
              </>
            ) : (
              <span className="muted">Drag across the chart to select a time range</span>
            )}
          </span>
        </div>
        {hasAsh ? (
          <AshChart
            option={option}
            selection={selection}
            onSelect={onSelect}
            group={group}
            label="Average active sessions by wait class over time, with the vCPU line and the job's phases"
            data={{ classes: classes.join(','), buckets: buckets.length, 'bucket-ms': bucketMs, vcpus: vcpus?.count ?? 0, 'class-points': ashPointCount(ash.series, classes) }}
          />
        ) : (
          <p className="muted" data-testid="ash-empty">
            {active ? 'Waiting for the first active session sample…' : 'No active session history was recorded for this job.'}
          </p>
        )}
        <p className="muted small">
          Average active sessions per {bucketMs / 1000} s{vcpus ? `; the dashed line is the database host's ${vcpus.count} vCPUs` : ''}. Colours are fixed per wait class; CPU is at the bottom.
        </p>
      </section>

      {hasAsh && (
        <div className="tops-grid">
          <section className="card" aria-label="Top events">
            <h3>Top events</h3>
            <TopEvents tops={tops.tops} palette={palette} testId="top-events" meta={tableMeta} selected={event} onSelect={setEvent} />
          </section>
          <section className="card" aria-label="Top SQL">
            <div className="card-head">
              <h3>Top SQL{event ? ` waiting on ${event.event}` : ''}</h3>
              {event && (
                <button type="button" className="small" onClick={() => setEvent(null)} data-testid="clear-event">
                  All events
                </button>
              )}
            </div>
            {event && <p className="muted small">Share of the activity of {event.event} ({event.waitClass}){pageNote}.</p>}
            <TopSql rows={sqlRows} palette={palette} testId="top-sql" meta={{ ...tableMeta, event: event ? `${event.waitClass}:${event.event}` : '' }} selected={sqlId} onSelect={setSqlId} />
          </section>
          <section className="card" aria-label="Top sessions">
            <h3>Top sessions</h3>
            <TopSessions tops={tops.tops} palette={palette} testId="top-sessions" meta={tableMeta} />
          </section>
          <section className="card" aria-label="SQL activity over time">
            <div className="card-head">
              <h3>SQL activity over time</h3>
              {sqlId && (
                <button type="button" className="small" onClick={() => setSqlId(null)}>
                  Close
                </button>
              )}
            </div>
            {sqlId && activityOption ? (
              <>
                <p className="mono sql-full" data-testid="sql-activity-text">
                  {sqlText}
                </p>
                <EChart option={activityOption} height={170} label={`Activity of one SQL over time by wait class`} testId="chart-sql-activity" />
                <p className="muted small">By wait class{pageNote}.</p>
              </>
            ) : (
              <p className="muted">Click a statement in Top SQL to see its activity over time by wait class.</p>
            )}
          </section>
        </div>
      )}

      {agents.length ? (
        agents.map((label) => (
          <CpuAgent key={label} label={label} samples={cpu.sources[label] ?? []} system={cpu.systems[label]} range={range} palette={palette} selection={selection} group={group} database={label === dbAgent && agents.length > 1} />
        ))
      ) : (
        <section className="card" aria-label="CPU">
          <h3>CPU</h3>
          <p className="muted" data-testid="cpu-empty">
            No CPU agent samples for this job. The server starts a local agent when apps/agent is built; remote hosts run <code>sledge-agent --server ws://&lt;sledge-host&gt;:8080</code>.
          </p>
        </section>
      )}
    </div>
  );
}
