import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** This package's directory (src/ or dist/ sit one level below it, beside tproch-answers/). */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The TPC-H answer set of query `query` (1..22) at SF 1 with the
 * qualification parameters: dbgen's answers/qN.out without its column
 * padding (tproch-answers/README.md). First line: column names; then one
 * line per row, cells separated by `|`.
 */
export function tprochAnswerText(query: number): string {
  if (!Number.isInteger(query) || query < 1 || query > 22) throw new Error(`no TPC-H answer for query ${query}: queries are 1..22`);
  return gunzipSync(readFileSync(join(ROOT, 'tproch-answers', `q${query}.out.gz`))).toString('utf8');
}
