/**
 * TPROC-H's DATE values as text (YYYY-MM-DD), the same on every machine.
 * Some client libraries make a Date of a DATE column: tedious (SQL Server,
 * useUTC) at UTC midnight, node-oracledb at the process's local midnight.
 * Serialised, such a Date is a timestamp, and one read as local midnight
 * shows the day before east of UTC. A driver whose library does this passes
 * its query rows through rowsWithDateText, saying how the library read them.
 * (PostgreSQL keeps the server's text with a type parser; MySQL/MariaDB
 * sessions use dateStrings; SQLite stores text.)
 */

/** How a client library turned a column's wall-clock value into a Date. */
export type DateReading = 'utc' | 'local';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The wall-clock text of a Date: YYYY-MM-DD at midnight, else YYYY-MM-DD HH:MM:SS[.mmm]. */
export function dateText(d: Date, read: DateReading): string {
  const utc = read === 'utc';
  const [y, mo, day] = utc ? [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()] : [d.getFullYear(), d.getMonth(), d.getDate()];
  const [h, mi, s, ms] = utc ? [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()] : [d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()];
  const date = `${pad(y, 4)}-${pad(mo + 1)}-${pad(day)}`;
  if (h === 0 && mi === 0 && s === 0 && ms === 0) return date;
  return `${date} ${pad(h)}:${pad(mi)}:${pad(s)}${ms ? `.${pad(ms, 3)}` : ''}`;
}

/** Rows with every Date value replaced by its wall-clock text; other values as they are. */
export function rowsWithDateText(rows: readonly (readonly unknown[])[], read: DateReading): unknown[][] {
  return rows.map((r) => r.map((v) => (v instanceof Date ? dateText(v, read) : v)));
}
