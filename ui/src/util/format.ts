/** Number and time formatting shared by pages and chart tooltips. */

const intFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function fmtInt(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '–' : intFmt.format(Math.round(n));
}

/** Up to `digits` decimals, trailing zeros dropped. */
export function fmtNum(n: number | null | undefined, digits = 2): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(n);
}

/** Milliseconds with 3 significant-ish decimals, as HammerDB's time profile prints them. */
export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  return ms >= 100 ? fmtNum(ms, 1) : fmtNum(ms, 3);
}

/** 0:42, 12:05, 1:02:03 */
export function fmtDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '–';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? h + ':' : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local date as YYYY-MM-DD (the jobs list groups by it). */
export function localDay(iso: string | number): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Local time as HH:MM:SS. */
export function localTime(iso: string | number): string {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function localDateTime(iso: string | number | undefined): string {
  return iso === undefined ? '–' : `${localDay(iso)} ${localTime(iso)}`;
}

/** Rows per second, compact: 12.3k rows/s */
export function fmtRate(perSec: number): string {
  if (!Number.isFinite(perSec) || perSec <= 0) return '–';
  if (perSec >= 1e6) return `${fmtNum(perSec / 1e6, 2)}M`;
  if (perSec >= 1e3) return `${fmtNum(perSec / 1e3, 1)}k`;
  return fmtNum(perSec, 0);
}
