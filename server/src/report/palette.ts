import { CHART_COLORS, WAIT_CLASS_COLORS, type WaitClass } from '@sledge/protocol';

/**
 * The report's chart colours, light and dark: protocol's CHART_COLORS, the
 * ones the dashboard draws with (ui/src/charts/options/palette.ts), plus the
 * report's own box and band fills. Operations take their workload's colours
 * (protocol opColor), as in the dashboard.
 */
export interface Palette {
  mode: 'light' | 'dark';
  text: string;
  muted: string;
  axisLine: string;
  splitLine: string;
  box: string;
  nopm: string;
  tpm: string;
  p50: string;
  p95: string;
  p99: string;
  series: readonly string[];
  cpu: { usr: string; sys: string; iowait: string; other: string };
  rampup: string;
  window: string;
}

const { cpu: LC, ...L } = CHART_COLORS.light;
const { cpu: DC, ...D } = CHART_COLORS.dark;

export const LIGHT: Palette = {
  mode: 'light',
  ...L,
  box: '#ffffff',
  cpu: { usr: LC.usr, sys: LC.sys, iowait: LC.iowait, other: LC.irq },
  rampup: 'rgba(217, 119, 6, 0.10)',
  window: 'rgba(37, 99, 235, 0.07)',
};

export const DARK: Palette = {
  mode: 'dark',
  ...D,
  box: '#1f2430',
  cpu: { usr: DC.usr, sys: DC.sys, iowait: DC.iowait, other: DC.irq },
  rampup: 'rgba(251, 191, 36, 0.12)',
  window: 'rgba(96, 165, 250, 0.10)',
};

/** A wait class's fixed colour (protocol WAIT_CLASS_COLORS); unknown classes take Other's. */
export function waitClassColor(cls: string, p: Palette): string {
  return (WAIT_CLASS_COLORS[cls as WaitClass] ?? WAIT_CLASS_COLORS.Other)[p.mode];
}
