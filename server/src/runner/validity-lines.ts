import type { Validity } from '@sledge/protocol';

/** A validity verdict as monitor output: one line per check, then the verdict with its counts. */
export function validityLines(v: Validity): string[] {
  const n = (s: string) => v.checks.filter((c) => c.status === s).length;
  // Status after the title: "PASS: <text>" would read as a password to the output's secret redaction.
  return [
    ...v.checks.map((c) => `Validity check ${c.title}: ${c.status.toUpperCase()} - ${c.detail}`),
    `Validity verdict: ${v.status.toUpperCase()} (${n('pass')} passed, ${n('warn')} warned, ${n('fail')} failed, ${n('skip')} skipped)`,
  ];
}
