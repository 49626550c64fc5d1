import type { BuildProgress } from '@sledge/protocol';
import type { ProgressPoint } from '../live/jobState.js';
import { progressValue, summarizeProgress, type Bar, type BuildWorkerOf } from '../util/progress.js';
import { fmtDuration, fmtInt, fmtRate } from '../util/format.js';

function Bars({ bars, label }: { bars: Bar[]; label: string }) {
  return (
    <ul className="bars" aria-label={label}>
      {bars.map((b) => (
        <li key={b.label} data-done={b.done} data-expected={b.expected} data-percent={b.percent}>
          <span className="bar-label">{b.label}</span>
          <progress value={progressValue(b)} max={1000} aria-label={`${b.label} ${b.percent}%`} />
          <span className="bar-num">
            {fmtInt(b.done)}
            {b.expected ? ` / ${fmtInt(b.expected)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

export interface BuildProgressProps {
  progress: BuildProgress;
  trail: readonly ProgressPoint[];
  elapsedMs?: number | undefined;
  /** The workload's description of a build worker (its tables and units). */
  workerOf: BuildWorkerOf;
  /** The build job completed: every worker is shown complete. */
  complete?: boolean;
}

/** Build progress per table and per build worker, with rows/s and ETA. */
export function BuildProgressView({ progress, trail, elapsedMs, workerOf, complete = false }: BuildProgressProps) {
  const s = summarizeProgress(progress, trail, elapsedMs, workerOf, complete);
  return (
    <section className="build-progress" aria-label="Build progress" data-testid="build-progress">
      <div className="kpis">
        <div>
          <span className="big" data-testid="build-percent">{s.percent}%</span>
          <span className="unit">of {fmtInt(s.expected)} rows</span>
        </div>
        <div>
          <span className="big">{fmtRate(s.rowsPerSec)}</span>
          <span className="unit">rows/s</span>
        </div>
        <div>
          <span className="big">{s.etaSec === undefined ? '–' : fmtDuration(s.etaSec * 1000)}</span>
          <span className="unit">ETA</span>
        </div>
        <div>
          <span className="big">{progress.phase}</span>
          <span className="unit">phase</span>
        </div>
      </div>
      <div className="two-col">
        <div>
          <h4>Tables</h4>
          <Bars bars={s.tables} label="Rows per table" />
        </div>
        <div>
          <h4>Workers</h4>
          <Bars bars={s.workers} label="Rows per build worker" />
        </div>
      </div>
    </section>
  );
}
