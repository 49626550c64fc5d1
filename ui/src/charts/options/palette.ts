import { CHART_COLORS, WAIT_CLASS_COLORS, type WaitClass } from '@sledge/protocol';

export type CpuPart = 'usr' | 'sys' | 'iowait' | 'irq' | 'soft' | 'steal';

export interface ChartPalette {
  mode: 'light' | 'dark';
  text: string;
  muted: string;
  axisLine: string;
  splitLine: string;
  tooltipBg: string;
  tooltipBorder: string;
  nopm: string;
  tpm: string;
  p50: string;
  p95: string;
  p99: string;
  /** Colours for overlaid jobs (compare). */
  series: string[];
  /** CPU time by kind (agent samples). */
  cpu: Record<CpuPart, string>;
  /** The heat strip's scale, 0% busy to 100% busy. */
  heat: string[];
  /** Phase bands on the metrics time axis. */
  phase: string;
  /** The vCPU line. */
  vcpu: string;
}

/** The shared chart colours (protocol's CHART_COLORS, which the HTML report draws with too) and the dashboard's own extras. */
export const LIGHT: ChartPalette = {
  mode: 'light',
  ...CHART_COLORS.light,
  series: [...CHART_COLORS.light.series],
  cpu: { ...CHART_COLORS.light.cpu },
  tooltipBg: '#ffffff',
  tooltipBorder: '#d1d5db',
  heat: ['#eef2f7', '#fde68a', '#f59e0b', '#dc2626', '#7f1d1d'],
  phase: 'rgba(37, 99, 235, 0.06)',
  vcpu: '#111827',
};

export const DARK: ChartPalette = {
  mode: 'dark',
  ...CHART_COLORS.dark,
  series: [...CHART_COLORS.dark.series],
  cpu: { ...CHART_COLORS.dark.cpu },
  tooltipBg: '#1f2430',
  tooltipBorder: '#3b4252',
  heat: ['#1e2633', '#4c1d95', '#b91c1c', '#f97316', '#fde047'],
  phase: 'rgba(96, 165, 250, 0.08)',
  vcpu: '#f3f4f6',
};

export const paletteFor = (theme: 'light' | 'dark'): ChartPalette => (theme === 'dark' ? DARK : LIGHT);

/** The fixed colour of a wait class (protocol's WAIT_CLASS_COLORS), light or dark variant; unknown classes are 'Other'. */
export function waitClassColor(cls: string, p: Pick<ChartPalette, 'mode'>): string {
  const c = WAIT_CLASS_COLORS[cls as WaitClass] ?? WAIT_CLASS_COLORS.Other;
  return c[p.mode];
}
