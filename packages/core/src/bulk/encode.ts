/**
 * Bulk formats a generator can emit. Generated values never contain a
 * delimiter, quote, backslash or newline (they are alphanumerics, fixed
 * tokens, numbers and timestamps), so no escaping is needed; a test asserts it.
 *
 * - `pg-text`: PostgreSQL COPY text format: tab separated, `\N` for NULL, `\n` rows.
 * - `csv`: comma separated, `\N` for NULL, `\n` rows (MySQL/MariaDB LOAD DATA, flat files).
 * - `tuples`: JS arrays, for engines that bind parameters (SQLite, array DML).
 */
export type BulkFormat = 'pg-text' | 'csv' | 'tuples';
export type Value = string | number | null;

export interface RowOut {
  row(values: readonly Value[]): void;
  readonly rows: number;
  take(): string | Value[][];
}

class TextOut implements RowOut {
  private parts = '';
  rows = 0;
  constructor(private readonly sep: string) {}
  row(v: readonly Value[]): void {
    let s = '';
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (i > 0) s += this.sep;
      s += x === null ? '\\N' : x;
    }
    this.parts += s + '\n';
    this.rows++;
  }
  take(): string {
    const p = this.parts;
    this.parts = '';
    return p;
  }
}

class TupleOut implements RowOut {
  private list: Value[][] = [];
  rows = 0;
  row(v: readonly Value[]): void {
    this.list.push(v.slice());
    this.rows++;
  }
  take(): Value[][] {
    const l = this.list;
    this.list = [];
    return l;
  }
}

export function rowOut(format: BulkFormat): RowOut {
  switch (format) {
    case 'pg-text':
      return new TextOut('\t');
    case 'csv':
      return new TextOut(',');
    case 'tuples':
      return new TupleOut();
  }
}
