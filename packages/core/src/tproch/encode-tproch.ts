import type { BulkFormat, Value } from '../bulk/encode.js';

/**
 * TPROC-H bulk encodings (spec decision, tproch-spec.md):
 * - `pg-text`: tab separated, one row per line (PostgreSQL COPY text).
 * - `csv`: `|` separated (dbgen's .tbl delimiter, which TPC-H data never
 *   holds; comments do hold commas), no quoting, no trailing separator.
 * - `tuples`: arrays in TPROCH_COLUMNS order; keys and integers as numbers,
 *   money and decimals as numbers (2 places), dates and text as strings.
 * Generated values never hold a tab, `|`, a newline or a backslash (a test
 * asserts it), so nothing needs escaping.
 */
export const tprochSeparator = (format: BulkFormat): string => (format === 'csv' ? '|' : '\t');

/** Cents as dbgen prints money: optional '-', dollars, '.', two digits. */
export function formatCents(cents: number): string {
  const neg = cents < 0;
  const a = neg ? -cents : cents;
  const c = a % 100;
  return `${neg ? '-' : ''}${(a - c) / 100}.${c < 10 ? '0' : ''}${c}`;
}

/** Collects the rows of one table in a format. */
export class TprochTableOut {
  rows = 0;
  private text = '';
  private line = '';
  private first = true;
  private readonly tuples: Value[][] = [];
  private row: Value[] = [];
  private readonly sep: string;
  readonly isText: boolean;

  constructor(format: BulkFormat) {
    this.isText = format !== 'tuples';
    this.sep = tprochSeparator(format);
  }

  str(v: string): void {
    if (this.isText) {
      this.line += this.first ? v : this.sep + v;
      this.first = false;
    } else this.row.push(v);
  }

  int(v: number): void {
    if (this.isText) {
      this.line += this.first ? String(v) : this.sep + String(v);
      this.first = false;
    } else this.row.push(v);
  }

  money(cents: number): void {
    if (this.isText) {
      const s = formatCents(cents);
      this.line += this.first ? s : this.sep + s;
      this.first = false;
    } else this.row.push(cents / 100);
  }

  end(): void {
    this.rows++;
    if (this.isText) {
      this.text += this.line + '\n';
      this.line = '';
      this.first = true;
    } else {
      this.tuples.push(this.row);
      this.row = [];
    }
  }

  /** Finished rows from index i on (tuples format only), without taking them. */
  tuplesFrom(i: number): Value[][] {
    return this.tuples.slice(i);
  }

  take(): string | Value[][] {
    return this.isText ? this.text : this.tuples;
  }
}
