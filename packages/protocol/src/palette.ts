/**
 * The chart colours the dashboard (ui, ECharts in the browser) and the HTML
 * report (server, ECharts rendered to SVG) share, light and dark: one place
 * so a transaction, a series or a percentile has the same colour in both.
 * Each workload's operation colours are in its definition
 * (WorkloadDef.operationColor, workloads/index.ts opColor); wait classes in
 * metrics.ts (WAIT_CLASS_COLORS).
 */

/** A colour in the light and the dark theme. */
export interface ThemeColor {
  light: string;
  dark: string;
}

/** The colours both chart renderers draw with, in one theme. */
export interface ChartColors {
  text: string;
  muted: string;
  axisLine: string;
  splitLine: string;
  nopm: string;
  tpm: string;
  p50: string;
  p95: string;
  p99: string;
  /** Overlaid jobs (compare), streams: in this order. */
  series: readonly string[];
  /** CPU time by kind (agent samples). */
  cpu: { usr: string; sys: string; iowait: string; irq: string; soft: string; steal: string };
}

export const CHART_COLORS: Readonly<Record<'light' | 'dark', ChartColors>> = {
  light: {
    text: '#1f2937',
    muted: '#6b7280',
    axisLine: '#9ca3af',
    splitLine: '#e5e7eb',
    nopm: '#2563eb',
    tpm: '#dc2626',
    p50: '#16a34a',
    p95: '#d97706',
    p99: '#dc2626',
    series: ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777', '#4b5563'],
    cpu: { usr: '#16a34a', sys: '#dc2626', iowait: '#2563eb', irq: '#9333ea', soft: '#d97706', steal: '#4b5563' },
  },
  dark: {
    text: '#e5e7eb',
    muted: '#9ca3af',
    axisLine: '#6b7280',
    splitLine: '#2f3542',
    nopm: '#60a5fa',
    tpm: '#f87171',
    p50: '#4ade80',
    p95: '#fbbf24',
    p99: '#f87171',
    series: ['#60a5fa', '#f87171', '#4ade80', '#fbbf24', '#c084fc', '#22d3ee', '#f472b6', '#d1d5db'],
    cpu: { usr: '#4ade80', sys: '#f87171', iowait: '#60a5fa', irq: '#c084fc', soft: '#fbbf24', steal: '#d1d5db' },
  },
};

/** An operation a workload gives no colour: grey. */
export const OTHER_OP_COLOR: ThemeColor = { light: '#4b5563', dark: '#d1d5db' };

/** #rrggbb of an HSL colour (h degrees, s and l in per cent): a form every renderer parses the same way. */
export function hslHex(h: number, s: number, l: number): string {
  const S = s / 100;
  const L = l / 100;
  const a = S * Math.min(L, 1 - L);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = L - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}
