/**
 * Generated rows in the 'csv' bulk format: comma separated, `\N` for NULL,
 * one row per `\n`. Generated values never hold a comma, quote, backslash
 * or newline (core guarantees it), so no unquoting is needed.
 */
export type CsvValue = string | null;

export function parseCsvLine(line: string): CsvValue[] {
  return line.split(',').map((v) => (v === '\\N' ? null : v));
}

/** Rows of `text` in batches of at most `maxChars` characters (at least one row per batch). */
export function* csvBatches(text: string, maxChars: number): Generator<CsvValue[][]> {
  let batch: CsvValue[][] = [];
  let size = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line === '') continue;
    if (batch.length > 0 && size + line.length > maxChars) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(parseCsvLine(line));
    size += line.length + 1;
  }
  if (batch.length > 0) yield batch;
}

/** Slices of a buffer, for streaming LOAD DATA LOCAL INFILE in packets of bounded size. */
export function* slices(buf: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < buf.length; at += size) yield buf.subarray(at, Math.min(buf.length, at + size));
}

/** Text that needs no escaping inside '...': no quote, and no backslash except whole \N (NULL) fields. */
export function isPlainCsv(text: string): boolean {
  return !/['\\]/.test(text.replace(/(^|[,\n])\\N(?=[,\n]|$)/g, '$1'));
}

/**
 * Rows of `text` as SQL row constructors ("('1','a',NULL),(...)") in batches
 * of at most `maxChars` characters of CSV. Only for text that isPlainCsv:
 * values are quoted as they are, \N becomes NULL; the server converts the
 * quoted numbers to the column types.
 */
export function* sqlValueBatches(text: string, maxChars: number): Generator<{ sql: string; rows: number }> {
  let parts: string[] = [];
  let size = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line === '') continue;
    if (parts.length > 0 && size + line.length > maxChars) {
      yield { sql: parts.join(','), rows: parts.length };
      parts = [];
      size = 0;
    }
    parts.push(("('" + line.replaceAll(',', "','") + "')").replaceAll("'\\N'", 'NULL'));
    size += line.length + 1;
  }
  if (parts.length > 0) yield { sql: parts.join(','), rows: parts.length };
}
