/** Number and time formats of the report (fixed, not locale-dependent: a report reads the same everywhere). */

const pad = (n: number) => String(n).padStart(2, '0');

/** 1234567 -> "1,234,567". */
export function int(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '';
  return Math.round(v)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Milliseconds with 3 significant digits ("0.412", "12.3", "1,530"). */
export function ms(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '';
  if (Math.abs(v) >= 1000) return int(v);
  return String(Number(v.toPrecision(3)));
}

/** A number with the given decimals. */
export function fixed(v: number | undefined, digits: number): string {
  return v === undefined || !Number.isFinite(v) ? '' : v.toFixed(digits);
}

/** Seconds as m:ss or h:mm:ss. */
export function elapsed(sec: number): string {
  const s = Math.max(0, Math.round(sec));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** 12300 -> "12.3k". */
export function compact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${+(v / 1e9).toFixed(1)}G`;
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return String(+v.toFixed(2));
}

/** An ISO time as "2026-11-24 05:02:58 UTC". */
export function utc(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Signed per cent change of v against base ("+3.2%"), '' when not computable. */
export function pctChange(v: number | undefined, base: number | undefined): string {
  if (v === undefined || base === undefined || !Number.isFinite(v) || !Number.isFinite(base) || base === 0) return '';
  const d = ((v - base) / base) * 100;
  return `${d >= 0 ? '+' : ''}${d.toFixed(1)}%`;
}

/**
 * At most `max` points: consecutive points are averaged in equal groups
 * (a long run's per-second CPU samples stay readable and the file small).
 */
export function downsample<T extends { ts: number }>(rows: readonly T[], max: number, mean: (group: readonly T[]) => T): T[] {
  if (rows.length <= max) return [...rows];
  const size = Math.ceil(rows.length / max);
  const out: T[] = [];
  for (let i = 0; i < rows.length; i += size) out.push(mean(rows.slice(i, i + size)));
  return out;
}
