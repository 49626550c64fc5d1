import type { TxType } from '@sledge/protocol';

export interface ChartPalette {
  text: string;
  muted: string;
  axisLine: string;
  splitLine: string;
  tooltipBg: string;
  tooltipBorder: string;
  nopm: string;
  tpm: string;
  tx: Record<TxType, string>;
  p50: string;
  p95: string;
  p99: string;
  /** Colours for overlaid jobs (compare). */
  series: string[];
}

const tx = {
  neworder: '#2563eb',
  payment: '#16a34a',
  delivery: '#d97706',
  stocklevel: '#9333ea',
  orderstatus: '#0891b2',
} satisfies Record<TxType, string>;

export const LIGHT: ChartPalette = {
  text: '#1f2937',
  muted: '#6b7280',
  axisLine: '#9ca3af',
  splitLine: '#e5e7eb',
  tooltipBg: '#ffffff',
  tooltipBorder: '#d1d5db',
  nopm: '#2563eb',
  tpm: '#dc2626',
  tx,
  p50: '#16a34a',
  p95: '#d97706',
  p99: '#dc2626',
  series: ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777', '#4b5563'],
};

export const DARK: ChartPalette = {
  text: '#e5e7eb',
  muted: '#9ca3af',
  axisLine: '#6b7280',
  splitLine: '#2f3542',
  tooltipBg: '#1f2430',
  tooltipBorder: '#3b4252',
  nopm: '#60a5fa',
  tpm: '#f87171',
  tx: { neworder: '#60a5fa', payment: '#4ade80', delivery: '#fbbf24', stocklevel: '#c084fc', orderstatus: '#22d3ee' },
  p50: '#4ade80',
  p95: '#fbbf24',
  p99: '#f87171',
  series: ['#60a5fa', '#f87171', '#4ade80', '#fbbf24', '#c084fc', '#22d3ee', '#f472b6', '#d1d5db'],
};

export const paletteFor = (theme: 'light' | 'dark'): ChartPalette => (theme === 'dark' ? DARK : LIGHT);
