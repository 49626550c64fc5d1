import { isTproccResult, type Job, type TimingRow } from '@sledge/protocol';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export function jobTable(jobs: Job[]): string {
  const head = ['ID', 'TYPE', 'ENGINE', 'STATUS', 'CREATED', 'SUMMARY'];
  const rows = jobs.map((j) => [j.id, j.type, j.engine, j.status, j.createdAt.slice(0, 19).replace('T', ' '), j.result?.line ?? j.summary ?? j.error?.message ?? '']);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  widths[5] = Math.min(widths[5]!, 80);
  return [head, ...rows].map((r) => r.map((c, i) => pad(i === 5 ? c.slice(0, 80) : c, widths[i]!)).join('  ')).join('\n');
}

export function timingTable(rows: TimingRow[]): string {
  const head = ['PROC', 'CALLS', 'MIN', 'AVG', 'MAX', 'P50', 'P95', 'P99', 'RATIO%'];
  const body = rows
    .filter((r) => r.vu === 0)
    .map((r) => [r.proc, String(r.calls), r.minMs.toFixed(3), r.avgMs.toFixed(3), r.maxMs.toFixed(3), r.p50Ms.toFixed(3), r.p95Ms.toFixed(3), r.p99Ms.toFixed(3), r.ratioPct.toFixed(2)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  return [head, ...body].map((r) => r.map((c, i) => pad(c, widths[i]!)).join('  ')).join('\n') + '\n(times in ms, measured window only)';
}

export function jobDetail(j: Job): string {
  const lines = [
    `Job ${j.id}  ${j.type} ${j.workload} on ${j.engine}${j.engineVersion ? ` ${j.engineVersion}` : ''}`,
    `Status:   ${j.status}${j.error ? ` (${j.error.code}: ${j.error.message})` : ''}`,
    `Created:  ${j.createdAt}${j.startedAt ? `  started ${j.startedAt}` : ''}${j.endedAt ? `  ended ${j.endedAt}` : ''}`,
    `Seed:     ${j.seed}${j.label ? `  label ${j.label}` : ''}${j.profileId ? `  profile ${j.profileId}` : ''}`,
  ];
  if (isTproccResult(j.result)) {
    lines.push(j.result.line);
    lines.push(`Active VUs ${j.result.activeVus}, measured ${j.result.measuredSeconds} s, TPM source ${j.result.tpmSource}${j.result.clientCpuMsPer1000Tx !== undefined ? `, client CPU ${j.result.clientCpuMsPer1000Tx} ms / 1000 tx` : ''}`);
  } else if (j.result) {
    lines.push(j.result.line);
    if (j.summary) lines.push(j.summary);
  } else if (j.summary) lines.push(j.summary);
  return lines.join('\n');
}
