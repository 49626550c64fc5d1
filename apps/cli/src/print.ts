import { shapeLines } from './shapes.js';
import { isTproccResult, type ChbenchResult, type Job, type ScriptResult, type TimingRow, type TprochResult } from '@sledge/protocol';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export function jobTable(jobs: Job[]): string {
  const head = ['ID', 'TYPE', 'ENGINE', 'STATUS', 'CREATED', 'SUMMARY'];
  const rows = jobs.map((j) => [j.id, j.type, j.engine, j.status, j.createdAt.slice(0, 19).replace('T', ' '), (j.passed === undefined ? '' : j.passed ? '[PASS] ' : '[FAIL] ') + (j.result?.line ?? j.summary ?? j.error?.message ?? '')]);
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
    lines.push(...shapeLines(j.result));
  } else if (j.result) {
    lines.push(j.result.line);
    if (j.summary) lines.push(j.summary);
  } else if (j.summary) lines.push(j.summary);
  return lines.join('\n');
}

/** A TPROC-H result on stdout: query times per stream (seconds, rows), refreshes, the geomean line and Sledge's power, throughput and composite scores. */
export function tprochReport(r: TprochResult): string {
  const streams = [...new Set(r.queries.map((q) => q.stream))].sort((a, b) => a - b);
  const head = `query ${streams.map((s) => `stream ${s}`.padStart(18)).join('')}`;
  const rows: string[] = [head];
  for (let q = 1; q <= 22; q++) {
    const cells = streams.map((s) => {
      const runs = r.queries.filter((x) => x.stream === s && x.query === q);
      const last = runs[runs.length - 1];
      if (!last) return '-'.padStart(18);
      return (last.error ? 'error' : `${last.seconds.toFixed(3)} s ${String(last.rows).padStart(5)}r`).padStart(18);
    });
    rows.push(`Q${String(q).padEnd(4)}${cells.join('')}`);
  }
  for (const f of r.refreshes) rows.push(`update ${f.update}: RF1 ${f.rf1Seconds.toFixed(3)} s, RF2 ${f.rf2Seconds.toFixed(3)} s (${f.orders} orders)`);
  rows.push(r.line);
  if (r.powerSeconds !== undefined && r.throughputSeconds !== undefined) rows.push(`power test ${r.powerSeconds.toFixed(3)} s, throughput test (${r.streams} streams) ${r.throughputSeconds.toFixed(3)} s`);
  const m = [
    r.powerAtSize !== undefined ? `power score ${r.powerAtSize.toFixed(1)}` : '',
    r.throughputAtSize !== undefined ? `throughput score ${r.throughputAtSize.toFixed(1)}` : '',
    r.qphh !== undefined ? `composite score ${r.qphh.toFixed(1)}` : '',
  ].filter(Boolean);
  if (m.length) rows.push(`${m.join(', ')} (per hour at SF ${r.scaleFactor}; Sledge's, by the TPC-H formulas, not TPC results)`);
  if (r.metricsNote) rows.push(r.metricsNote);
  if (!r.standardScale) rows.push(`SF ${r.scaleFactor} is not a standard TPC-H scale factor: results are not comparable with published ones`);
  return rows.join('\n') + '\n';
}

/** A CH-benCHmark result on stdout: TPROC-C's line, then the analytic streams' per-query times over the measured window. */
export function chbenchReport(r: ChbenchResult): string {
  const a = r.analytic;
  const rows: string[] = [r.line];
  if (a.streams === 0) return rows.concat('Analytic streams: none (transactions alone: the interference baseline)').join('\n') + '\n';
  rows.push(`Analytic streams: ${a.streams}; ${a.completedQueries} queries in the measured window, ${a.queriesPerHour} queries per hour, ${a.errors} errors, geometric mean ${a.geomean.toFixed(3)} s`);
  rows.push(`query  ${'count'.padStart(6)}${'mean s'.padStart(10)}${'min s'.padStart(10)}${'max s'.padStart(10)}${'errors'.padStart(8)}`);
  for (const q of a.perQuery) {
    rows.push(`Q${String(q.query).padEnd(5)}${String(q.count).padStart(6)}${q.meanSeconds.toFixed(3).padStart(10)}${q.minSeconds.toFixed(3).padStart(10)}${q.maxSeconds.toFixed(3).padStart(10)}${String(q.errors).padStart(8)}`);
  }
  if (r.interference) rows.push(`NOPM ${r.nopm} vs ${r.interference.baselineNopm} without analytic streams (job ${r.interference.baselineJobId}): ratio ${r.interference.ratio.toFixed(3)}`);
  return rows.join('\n') + '\n';
}

/** A script workload result on stdout: the TPS line, then each script's transactions, TPS and failures over the measured window. */
export function scriptReport(r: ScriptResult): string {
  const w = Math.max(6, ...r.scripts.map((s) => s.name.length));
  const rows = [r.line, `${'script'.padEnd(w)}${'weight'.padStart(8)}${'transactions'.padStart(14)}${'TPS'.padStart(10)}${'failed'.padStart(8)}`];
  for (const s of r.scripts) rows.push(`${s.name.padEnd(w)}${String(s.weight).padStart(8)}${String(s.transactions).padStart(14)}${s.tps.toFixed(2).padStart(10)}${String(s.errors).padStart(8)}`);
  rows.push(`scale ${r.scale}, ${r.activeVus} VU, measured ${r.measuredSeconds} s${r.clientCpuMsPer1000 !== undefined ? `, client CPU ${r.clientCpuMsPer1000} ms / 1000 transactions` : ''}`);
  rows.push(...shapeLines(r));
  return rows.join('\n') + '\n';
}
