import { resolve } from 'node:path';
import { SledgeError } from '@sledge/protocol';
import type { SledgeClient } from './client.js';
import { writeOwnerFile } from './owner-file.js';

/** `sledge report` flags: `--compare id,id` adds jobs to compare with the first; `-o`/`--out` names the file ('-' = stdout). */
export const REPORT_FLAGS = {
  compare: { type: 'string' },
  out: { type: 'string', short: 'o' },
} as const;

export interface ReportOptions {
  compare?: string | boolean | undefined;
  out?: string | boolean | undefined;
  json?: string | boolean | undefined;
}

/** The ids of a report: the job, then the --compare ones (at most 8 in all, checked by the server). */
export function reportIds(first: string | undefined, compare: string | undefined): string[] {
  if (!first) throw new SledgeError('SLEDGE_E_VALIDATION', 'sledge report needs a job id: sledge report <id> [--compare <id,...>] [-o file]', { field: 'id' });
  const more = (compare ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (compare !== undefined && !more.length) throw new SledgeError('SLEDGE_E_VALIDATION', '--compare needs job ids separated by commas, e.g. --compare 1A2B...,3C4D...', { field: '--compare' });
  return [first, ...more];
}

/**
 * Download a job's self-contained HTML report (or a comparison's) and write
 * it to a file, default sledge-<id>.html (sledge-compare-<id>-<id>.html).
 * stdout: the file written and its size (or the page itself with -o -).
 */
export async function reportCommand(client: SledgeClient, ids: readonly string[], o: ReportOptions): Promise<number> {
  const compare = ids.length > 1;
  const page = await client.text(compare ? `/compare/report?jobs=${ids.map(encodeURIComponent).join(',')}` : `/jobs/${encodeURIComponent(ids[0]!)}/report`);
  const out = typeof o.out === 'string' && o.out ? o.out : compare ? `sledge-compare-${ids.join('-')}.html` : `sledge-${ids[0]}.html`;
  if (out === '-') {
    process.stdout.write(page);
    return 0;
  }
  const file = resolve(out);
  writeOwnerFile(file, page, '--out');
  const bytes = Buffer.byteLength(page);
  process.stdout.write(o.json ? JSON.stringify({ file, bytes, jobs: ids }) + '\n' : `wrote ${file} (${bytes} bytes)\n`);
  return 0;
}
