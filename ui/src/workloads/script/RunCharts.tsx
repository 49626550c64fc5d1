import { useMemo } from 'react';
import type { LiveJob } from '../../live/jobState.js';
import { paletteFor } from '../../charts/options/palette.js';
import { ClientRatesCard, LatencyCard, useRunChartFrame } from '../../components/OpCharts.js';
import { useTheme } from '../../theme.js';
import { TproccErrorsCard } from '../tprocc/ErrorsCard.js';
import { scriptOps } from './jobs.js';
import { ScriptsCard } from './ScriptsCard.js';
import { ScriptStepsCard } from './StepsCard.js';

/** The script workload's run view, live or stored: its scripts and their figures, its steps or arrival rate, transactions per second and latency by script, errors by class and script. */
export function ScriptRunCharts({ live }: { live: LiveJob }) {
  const palette = paletteFor(useTheme());
  const { range, group } = useRunChartFrame(live);
  const ops = useMemo(() => scriptOps(live.job), [live.job]);
  return (
    <>
      <ScriptsCard live={live} />
      <ScriptStepsCard live={live} />
      <div className="charts run-charts">
      <ClientRatesCard live={live} ops={ops} range={range} group={group} palette={palette} />
      <LatencyCard live={live} ops={ops} range={range} group={group} palette={palette} />
      <TproccErrorsCard live={live} ops={ops} opTitle="Script" />
      </div>
    </>
  );
}
