import { MAXITEMS, ORD_PER_DIST, type TproccUnit } from '@sledge/core';

/**
 * The progress lines of HammerDB's TPROC-C loader (its wording, hammerdb.md
 * §5.3), for the units Sledge's build workers load: a line when a unit's
 * load starts and lines once it is loaded (committed). Sledge loads ITEM
 * and STOCK in chunks of 10000 rows and a district's orders as one unit, so
 * the counts HammerDB prints as it goes (`Loading Items - 10000` every
 * 10000 items, `Loading Stock - 20000` every 20000 stock rows, `...1000`
 * every 1000 orders) are printed as the chunks holding them are loaded:
 * `...3000` once a district's 3000 orders are in.
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** Tcl's `clock format [clock seconds]` (its default format, %a %b %d %H:%M:%S %Z %Y), in UTC: `Sun Nov 29 23:57:57 UTC 2026`. */
export function tclClockFormat(d: Date): string {
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** The line when a unit's load starts, or null when HammerDB prints none there (ITEM and STOCK chunks after the first). */
export function unitStartLine(u: TproccUnit): string | null {
  switch (u.kind) {
    case 'item':
      return u.from === 1 ? 'Loading Item' : null;
    case 'warehouse':
      return 'Loading Warehouse';
    case 'stock':
      return u.from === 1 ? `Loading Stock Wid=${u.w}` : null;
    case 'district':
      return 'Loading District';
    case 'customer':
      return `Loading Customer for DID=${u.d} WID=${u.w}`;
    case 'orders':
      return `Loading Orders for D=${u.d} W=${u.w}`;
  }
}

/** The lines once a unit is loaded. */
export function unitDoneLines(u: TproccUnit): string[] {
  switch (u.kind) {
    case 'item': {
      const out = u.to % 10000 === 0 || u.to === MAXITEMS ? [`Loading Items - ${u.to}`] : [];
      return u.to === MAXITEMS ? [...out, 'Item done'] : out;
    }
    case 'warehouse':
      return [];
    case 'stock': {
      const out = u.to % 20000 === 0 || u.to === MAXITEMS ? [`Loading Stock - ${u.to}`] : [];
      return u.to === MAXITEMS ? [...out, 'Stock done'] : out;
    }
    case 'district':
      return ['District done'];
    case 'customer':
      return ['Customer Done'];
    case 'orders':
      return [`...${ORD_PER_DIST}`, 'Orders Done'];
  }
}
