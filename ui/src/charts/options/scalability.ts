import type { ProfileScalability } from '@sledge/protocol';
import type { ChartPalette } from './palette.js';
import type { ChartOption, LineSeriesOption, Point } from './types.js';
import { base, compact, legend, tooltip, valueAxis } from './common.js';

/**
 * A profile's measured throughput against active VUs with the fitted USL
 * curve, its 95% band (when the fit has residual degrees of freedom) and the
 * predicted peak as a vertical line (docs/scalability.md).
 */
export function scalabilityOption(s: ProfileScalability, p: ChartPalette): ChartOption {
  const unit = s.metric.toUpperCase();
  const fit = s.fit;
  const color = s.metric === 'nopm' ? p.nopm : p.tpm;
  const series: LineSeriesOption[] = [
    {
      id: 'measured',
      name: `measured ${unit}`,
      type: 'line',
      data: s.steps.map((x): Point => [x.vus, x[s.metric]]),
      color,
      showSymbol: true,
      symbolSize: 9,
      lineStyle: { width: 0 },
      z: 5,
    },
  ];
  if (fit) {
    const banded = fit.curve.filter((c) => c.lo !== undefined && c.hi !== undefined);
    if (banded.length) {
      series.push(
        { id: 'band-lo', name: '95% band', type: 'line', stack: 'band', data: banded.map((c): Point => [c.n, c.lo!]), showSymbol: false, lineStyle: { opacity: 0 }, color: p.muted, silent: true, tooltip: { show: false } },
        {
          id: 'band',
          name: '95% band',
          type: 'line',
          stack: 'band',
          data: banded.map((c): Point => [c.n, c.hi! - c.lo!]),
          showSymbol: false,
          lineStyle: { opacity: 0 },
          areaStyle: { color: p.muted, opacity: 0.2 },
          color: p.muted,
          silent: true,
          tooltip: { show: false },
        },
      );
    }
    series.push({
      id: 'usl',
      name: 'USL fit',
      type: 'line',
      data: fit.curve.map((c): Point => [c.n, c.x]),
      showSymbol: false,
      smooth: false,
      color: p.tpm === color ? p.nopm : p.tpm,
      lineStyle: { width: 2, type: 'dashed' },
      ...(fit.peak
        ? {
            markLine: {
              symbol: 'none',
              silent: true,
              label: { formatter: `peak ${fit.peak.n.toFixed(1)} VUs`, color: p.muted },
              lineStyle: { color: p.muted, type: 'dotted' },
              data: [{ xAxis: fit.peak.n }],
            },
          }
        : {}),
    });
  }
  return {
    ...base(p),
    tooltip: { ...tooltip(p), valueFormatter: (v) => (typeof v === 'number' ? compact(v) : String(v)) },
    legend: legend(p, [`measured ${unit}`, ...(fit ? ['USL fit'] : []), ...(fit?.dof ? ['95% band'] : [])]),
    grid: { left: 64, right: 24, top: 36, bottom: 40 },
    xAxis: {
      type: 'value',
      name: 'active VUs',
      nameLocation: 'middle',
      nameGap: 26,
      nameTextStyle: { color: p.muted },
      min: 0,
      axisLabel: { color: p.muted },
      axisLine: { lineStyle: { color: p.axisLine } },
      splitLine: { show: false },
    },
    yAxis: valueAxis(p, unit),
    series,
  };
}
