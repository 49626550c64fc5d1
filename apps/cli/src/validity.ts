import { validityOfResult } from '@sledge/protocol';

const MARK = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', skip: 'SKIP' } as const;

/** A run's validity verdict as printed after it and by `sledge job <id>`: one line per check, then the overall line; undefined when the result has none. */
export function validityReport(result: unknown): string | undefined {
  const v = validityOfResult(result);
  if (!v) return undefined;
  const lines = v.checks.map((c) => `${MARK[c.status]}  ${c.title}: ${c.detail}`);
  const n = (s: string) => v.checks.filter((c) => c.status === s).length;
  lines.push(`VALIDITY ${v.status.toUpperCase()}: ${n('pass')} passed, ${n('warn')} warned, ${n('fail')} failed, ${n('skip')} skipped`);
  return lines.join('\n') + '\n';
}
