import { WAIT_CLASS_COLORS, type WaitClass } from '@sledge/protocol';

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

export const LIGHT: ChartPalette = {
  mode: 'light',
  text: '#1f2937',
  muted: '#6b7280',
  axisLine: '#9ca3af',
  splitLine: '#e5e7eb',
  tooltipBg: '#ffffff',
  tooltipBorder: '#d1d5db',
  nopm: '#2563eb',
  tpm: '#dc2626',
  p50: '#16a34a',
  p95: '#d97706',
  p99: '#dc2626',
  series: ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777', '#4b5563'],
  cpu: { usr: '#16a34a', sys: '#dc2626', iowait: '#2563eb', irq: '#9333ea', soft: '#d97706', steal: '#4b5563' },
  heat: ['#eef2f7', '#fde68a', '#f59e0b', '#dc2626', '#7f1d1d'],
  phase: 'rgba(37, 99, 235, 0.06)',
  vcpu: '#111827',
};

export const DARK: ChartPalette = {
  mode: 'dark',
  text: '#e5e7eb',
  muted: '#9ca3af',
  axisLine: '#6b7280',
  splitLine: '#2f3542',
  tooltipBg: '#1f2430',
  tooltipBorder: '#3b4252',
  nopm: '#60a5fa',
  tpm: '#f87171',
  p50: '#4ade80',
  p95: '#fbbf24',
  p99: '#f87171',
  series: ['#60a5fa', '#f87171', '#4ade80', '#fbbf24', '#c084fc', '#22d3ee', '#f472b6', '#d1d5db'],
  cpu: { usr: '#4ade80', sys: '#f87171', iowait: '#60a5fa', irq: '#c084fc', soft: '#fbbf24', steal: '#d1d5db' },
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
