import { useMemo } from 'react';
import { ENGINE_DISPLAY } from '@sledge/protocol';
import type { LiveJob } from '../../live/jobState.js';
import { EChart } from '../../charts/EChart.js';
import { tcountOption } from '../../charts/options/tcount.js';
import { paletteFor } from '../../charts/options/palette.js';
import { ClientRatesCard, LatencyCard, useRunChartFrame } from '../../components/OpCharts.js';
import { useWorkbench } from '../../state/workbench.js';
import { useTheme } from '../../theme.js';
import { chartableEngine } from '../../util/runProgress.js';
import { refreshSec } from './jobs.js';
import { TPROCC_OPS } from './ops.js';
import { tproccResult } from './result.js';
import { TproccErrorsCard, useDisruptionMarks } from './ErrorsCard.js';
import { ShapeCharts } from './ShapeCharts.js';

/**
 * "PostgreSQL TPM", or "SQLite TPM (client)" when the engine has no counter of
 * its own: the result's tpmSource, and before there is a result the engine's
 * declared capability (its driver's features.tpmSource).
 */
export function useTpmLabel(live: LiveJob): string {
  const caps = useWorkbench().capabilities;
  const name = ENGINE_DISPLAY[live.job.engine];
  const source = tproccResult(live.job)?.tpmSource ?? caps?.engines.find((e) => e.engine === live.job.engine)?.features?.tpmSource;
  return `${name} TPM${source === 'client' ? ' (client)' : ''}`;
}

/**
 * The run charts, live or from the store (same frames either way): NOPM/TPM,
 * client tx/s by transaction and latency percentiles on one shared time axis.
 */
export function TproccRunCharts({ live }: { live: LiveJob }) {
  const palette = paletteFor(useTheme());
  const { range, group, ended } = useRunChartFrame(live);
  const label = useTpmLabel(live);
  const engine = useMemo(() => chartableEngine(live.engine, ended), [live.engine, ended]);
  const marks = useDisruptionMarks(live);
  const tc = useMemo(() => tcountOption({ engine, tpmLabel: label, range, palette, marks }), [engine, label, range, palette, marks]);
  return (
    <div className="charts run-charts">
      <section className="card">
        <div className="card-head">
          <h3>NOPM and TPM per minute</h3>
          <span className="muted small" title="NOPM from the engine's new orders; TPM from its transaction counter (SQLite: counted by Sledge)">
            every {String(refreshSec(live.job))} s
          </span>
        </div>
        <EChart option={tc} group={group} label={`NOPM and ${label} over time`} testId="chart-tcount" />
      </section>
      <ShapeCharts live={live} tpmLabel={label} range={range} group={group} />
      <ClientRatesCard live={live} ops={TPROCC_OPS} range={range} group={group} palette={palette} />
      <LatencyCard live={live} ops={TPROCC_OPS} range={range} group={group} palette={palette} />
      <TproccErrorsCard live={live} />
    </div>
  );
}
