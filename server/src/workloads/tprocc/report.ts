import { isTproccResult, mixText, type Job } from '@sledge/protocol';
import { html, type Html } from '../../report/escape.js';
import { fixed, int, pctChange, utc } from '../../report/format.js';
import { engineName } from '../../report/sections-job.js';
import { chartableEngine } from '../../report/job-charts.js';
import { headlineBarsOption, overlayOption } from '../../report/compare-charts.js';
import { legendName, timingCompare } from '../../report/compare-sections.js';
import type { ReportData } from '../../report/data.js';
import { themedChart } from '../../report/svg.js';
import { num, table, type Cell } from '../../report/tables.js';
import { jobStart, since } from '../../report/timeline.js';
import type { ResultFigures, WorkloadReport } from '../registry.js';
import { tproccArtifact } from './artifact.js';

/** NOPM, the engine's TPM, active VUs, warehouses, the window and the client's CPU. */
function figures(job: Job): ResultFigures | undefined {
  const r = job.result;
  if (!isTproccResult(r)) return undefined;
  const stats: ResultFigures['stats'] = [[int(r.nopm), 'NOPM'], [int(r.tpm), `${engineName(job.engine)} TPM${r.tpmSource === 'client' ? ' (client-counted)' : ''}`], [int(r.activeVus), 'active VUs']];
  if (r.warehouses !== undefined) stats.push([int(r.warehouses), 'warehouses']);
  stats.push([fixed(r.measuredSeconds, 0), 'measured seconds']);
  if (r.clientCpuMsPer1000Tx !== undefined) stats.push([int(r.clientCpuMsPer1000Tx), 'client CPU ms / 1000 tx']);
  if (r.standardMix === false && r.mix) {
    return { stats, note: `Non-standard transaction mix (${mixText(r.mix)}): not HammerDB's 10/10/1/1/1, so this NOPM is not comparable with HammerDB's standard runs.` };
  }
  return { stats };
}

/** The run's VUs: active VUs from the result, else the configured VUs. */
function vus(job: Job): number | undefined {
  const r = job.result;
  if (isTproccResult(r)) return r.activeVus;
  const v = (job.config as { tprocc?: { vus?: unknown } }).tprocc?.vus;
  return typeof v === 'number' ? v : undefined;
}

function headline(data: ReportData[]): Html {
  const base = data[0]!.job.result;
  const b = isTproccResult(base) ? base : undefined;
  const rows = data.map((d, i): Cell[] => {
    const r = isTproccResult(d.job.result) ? d.job.result : undefined;
    return [legendName(d, i), html`<span class="mono">${d.job.id}</span>`, engineName(d.job.engine), d.job.status, num(int(vus(d.job))), num(int(r?.warehouses)), num(int(r?.nopm)), num(i ? pctChange(r?.nopm, b?.nopm) : ''), num(int(r?.tpm)), num(i ? pctChange(r?.tpm, b?.tpm) : ''), utc(d.job.startedAt)];
  });
  const heads = data.map((d, i) => ({ name: legendName(d, i), values: isTproccResult(d.job.result) ? { NOPM: d.job.result.nopm, TPM: d.job.result.tpm } : {} }));
  return html`<section id="headline"><h2>Result</h2>
${themedChart('NOPM and TPM per job', (p) => headlineBarsOption(heads, ['NOPM', 'TPM'], p), { width: 760, height: 260 })}
${table(['job', 'id', 'engine', 'status', num('VUs'), num('warehouses'), num('NOPM'), num('Δ NOPM'), num('TPM'), num('Δ TPM'), 'started'], rows)}${mixNote(data)}</section>`;
}

/** Jobs that ran another transaction mix than HammerDB's: named, since their NOPM compares only with runs of the same mix. */
function mixNote(data: ReportData[]): Html | '' {
  const odd = data.flatMap((d, i) => {
    const r = d.job.result;
    return isTproccResult(r) && r.standardMix === false && r.mix ? [`${legendName(d, i)} (${mixText(r.mix)})`] : [];
  });
  if (!odd.length) return '';
  return html`<p class="muted" id="mix-note">Non-standard transaction mix: ${odd.join('; ')}. NOPM compares only between runs of the same mix, not with HammerDB's standard 10/10/1/1/1 runs.</p>`;
}

function timelines(data: ReportData[]): Html | '' {
  const lines = data.map((d, i) => {
    const t = since(jobStart(d));
    return { name: legendName(d, i), points: chartableEngine(d.engine).map((s): [number, number] => [t(s.ts), s.nopm]) };
  });
  if (lines.every((l) => !l.points.length)) return '';
  return html`<section id="timelines"><h2>NOPM over time</h2>${themedChart('NOPM, each job on its own elapsed time', (p) => overlayOption(lines, 'NOPM', p))}</section>`;
}

/** TPROC-C's parts of the reports: NOPM/TPM figures; a comparison's result table, NOPM timelines and p95 time profile; its v6 artifact. */
export const tproccReport: WorkloadReport = {
  figures,
  artifact: tproccArtifact,
  vus,
  compare: (data) => [headline(data), timelines(data), timingCompare(data)],
};
