import { WAIT_CLASS_COLORS, type WaitClass } from '@sledge/protocol';

/** The dashboard's chart colours (ui/src/charts/options/palette.ts), light and dark, for the report's SVG charts. */
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

export const LIGHT: Palette = {
  mode: 'light',
  text: '#1f2937',
  muted: '#6b7280',
  axisLine: '#9ca3af',
  splitLine: '#e5e7eb',
  box: '#ffffff',
  nopm: '#2563eb',
  tpm: '#dc2626',
  p50: '#16a34a',
  p95: '#d97706',
  p99: '#dc2626',
  series: ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777', '#4b5563'],
  cpu: { usr: '#16a34a', sys: '#dc2626', iowait: '#2563eb', other: '#9333ea' },
  rampup: 'rgba(217, 119, 6, 0.10)',
  window: 'rgba(37, 99, 235, 0.07)',
};

export const DARK: Palette = {
  mode: 'dark',
  text: '#e5e7eb',
  muted: '#9ca3af',
  axisLine: '#6b7280',
  splitLine: '#2f3542',
  box: '#1f2430',
  nopm: '#60a5fa',
  tpm: '#f87171',
  p50: '#4ade80',
  p95: '#fbbf24',
  p99: '#f87171',
  series: ['#60a5fa', '#f87171', '#4ade80', '#fbbf24', '#c084fc', '#22d3ee', '#f472b6', '#d1d5db'],
  cpu: { usr: '#4ade80', sys: '#f87171', iowait: '#60a5fa', other: '#c084fc' },
  rampup: 'rgba(251, 191, 36, 0.12)',
  window: 'rgba(96, 165, 250, 0.10)',
};

/** A wait class's fixed colour (protocol WAIT_CLASS_COLORS); unknown classes take Other's. */
export function waitClassColor(cls: string, p: Palette): string {
  return (WAIT_CLASS_COLORS[cls as WaitClass] ?? WAIT_CLASS_COLORS.Other)[p.mode];
}
