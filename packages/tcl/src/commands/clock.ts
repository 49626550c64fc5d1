import { TclError } from '../errors.js';
import type { Interp } from '../interp.js';
import { toBool, toInt } from '../numbers.js';

/** clock seconds | milliseconds | microseconds | clicks | format seconds ?-format fmt? ?-gmt bool? ?-timezone tz? */
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const p2 = (n: number) => String(n).padStart(2, '0');

interface Parts {
  Y: number;
  m: number;
  d: number;
  H: number;
  M: number;
  S: number;
  w: number;
  offsetMin: number;
}

function partsOf(seconds: number, utc: boolean): Parts {
  const t = new Date(seconds * 1000);
  if (utc) return { Y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate(), H: t.getUTCHours(), M: t.getUTCMinutes(), S: t.getUTCSeconds(), w: t.getUTCDay(), offsetMin: 0 };
  return { Y: t.getFullYear(), m: t.getMonth() + 1, d: t.getDate(), H: t.getHours(), M: t.getMinutes(), S: t.getSeconds(), w: t.getDay(), offsetMin: -t.getTimezoneOffset() };
}

function zoneName(seconds: number, utc: boolean): string {
  if (utc) return 'UTC';
  const name = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(new Date(seconds * 1000)).find((x) => x.type === 'timeZoneName')?.value;
  return name ?? 'UTC';
}

export function clockFormat(seconds: number, fmt: string, utc: boolean): string {
  const t = partsOf(seconds, utc);
  const dayOfYear = Math.floor((Date.UTC(t.Y, t.m - 1, t.d) - Date.UTC(t.Y, 0, 1)) / 86400000) + 1;
  const h12 = t.H % 12 === 0 ? 12 : t.H % 12;
  const off = Math.abs(t.offsetMin);
  const map: Record<string, () => string> = {
    Y: () => String(t.Y),
    y: () => p2(t.Y % 100),
    C: () => p2(Math.floor(t.Y / 100)),
    m: () => p2(t.m),
    d: () => p2(t.d),
    e: () => String(t.d).padStart(2, ' '),
    H: () => p2(t.H),
    k: () => String(t.H).padStart(2, ' '),
    I: () => p2(h12),
    l: () => String(h12).padStart(2, ' '),
    M: () => p2(t.M),
    S: () => p2(t.S),
    p: () => (t.H < 12 ? 'AM' : 'PM'),
    P: () => (t.H < 12 ? 'am' : 'pm'),
    a: () => DAYS[t.w]!.slice(0, 3),
    A: () => DAYS[t.w]!,
    b: () => MONTHS[t.m - 1]!.slice(0, 3),
    h: () => MONTHS[t.m - 1]!.slice(0, 3),
    B: () => MONTHS[t.m - 1]!,
    j: () => String(dayOfYear).padStart(3, '0'),
    u: () => String(t.w === 0 ? 7 : t.w),
    w: () => String(t.w),
    s: () => String(seconds),
    Z: () => zoneName(seconds, utc),
    z: () => `${t.offsetMin < 0 ? '-' : '+'}${p2(Math.floor(off / 60))}${p2(off % 60)}`,
    T: () => `${p2(t.H)}:${p2(t.M)}:${p2(t.S)}`,
    R: () => `${p2(t.H)}:${p2(t.M)}`,
    D: () => `${p2(t.m)}/${p2(t.d)}/${p2(t.Y % 100)}`,
    F: () => `${t.Y}-${p2(t.m)}-${p2(t.d)}`,
    c: () => `${DAYS[t.w]!.slice(0, 3)} ${MONTHS[t.m - 1]!.slice(0, 3)} ${String(t.d).padStart(2, ' ')} ${p2(t.H)}:${p2(t.M)}:${p2(t.S)} ${t.Y}`,
    n: () => '\n',
    t: () => '\t',
    '%': () => '%',
  };
  return fmt.replace(/%(.)/g, (m, c: string) => (map[c] ? map[c]() : m));
}

function clock(args: string[]): string {
  const sub = args[1];
  const now = Date.now();
  switch (sub) {
    case 'seconds':
      return String(Math.floor(now / 1000));
    case 'milliseconds':
      return String(now);
    case 'microseconds':
      return String(Math.floor(performance.timeOrigin * 1000 + performance.now() * 1000));
    case 'clicks':
      return args[2] === '-milliseconds' ? String(now) : String(Math.floor(performance.timeOrigin * 1000 + performance.now() * 1000));
    case 'format': {
      if (args[2] === undefined) throw new TclError('wrong # args: should be "clock format clockval ?-format string? ?-gmt boolean? ?-locale LOCALE? ?-timezone ZONE?"');
      const seconds = Number(toInt(args[2]));
      let fmt = '%a %b %d %H:%M:%S %Z %Y';
      let utc = false;
      for (let i = 3; i < args.length; i += 2) {
        const v = args[i + 1];
        if (v === undefined) throw new TclError(`missing value for option "${args[i]}"`);
        if (args[i] === '-format') fmt = v;
        else if (args[i] === '-gmt') utc = toBool(v);
        else if (args[i] === '-timezone') utc = /^:?(UTC|GMT|Etc\/UTC)$/i.test(v);
        else if (args[i] !== '-locale') throw new TclError(`bad option "${args[i]}": must be -format, -gmt, -locale, or -timezone`);
      }
      return clockFormat(seconds, fmt, utc);
    }
  }
  throw new TclError(`unknown or ambiguous subcommand "${sub}": must be clicks, format, microseconds, milliseconds, or seconds`);
}

export function registerClock(interp: Interp): void {
  interp.register('clock', clock);
}
