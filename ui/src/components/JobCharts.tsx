import { useMemo } from 'react';
import type { LiveJob } from '../live/jobState.js';
import { EChart } from '../charts/EChart.js';
import { boxplotOption } from '../charts/options/boxplot.js';
import { paletteFor } from '../charts/options/palette.js';
import { useTheme } from '../theme.js';
import { TimingTable } from './TimingTable.js';

/** Time profile: table and box plot (p25..p75 box, median, whiskers min and p99). */
export function TimingSection({ live }: { live: LiveJob }) {
  const theme = useTheme();
  const palette = paletteFor(theme);
  const option = useMemo(() => boxplotOption(live.timings, palette), [live.timings, palette]);
  if (!live.timings.length) return null;
  return (
    <section className="card" aria-label="Response times">
      <h3>Response times (ms)</h3>
      <TimingTable rows={live.timings} />
      <EChart option={option} height={60 + 44 * live.timings.filter((r) => r.vu === 0).length} label="Response time box plot per transaction" testId="chart-boxplot" />
    </section>
  );
}
