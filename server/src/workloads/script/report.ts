import { isScriptResult, type Job, type ScriptJobConfig } from '@sledge/protocol';
import type { ReportData } from '../../report/data.js';
import { html, type Html } from '../../report/escape.js';
import { fixed, int } from '../../report/format.js';
import { num, table } from '../../report/tables.js';
import type { ResultFigures, WorkloadReport } from '../registry.js';

/** TPS, transactions, failed, measured seconds, VUs, :scale. */
function figures(job: Job): ResultFigures | undefined {
  const r = job.result;
  if (!isScriptResult(r)) return undefined;
  const stats: ResultFigures['stats'] = [
    [fixed(r.tps, 1), 'TPS'],
    [int(r.transactions), 'transactions'],
    [int(r.failed), 'failed'],
    [fixed(r.measuredSeconds, 0), 'seconds measured'],
    [int(r.activeVus), 'VUs'],
    [int(r.scale), 'scale'],
  ];
  return { stats };
}

/** The scripts the job stored (a built-in's text filled in), as a run's or a build's config holds them. */
function storedScripts(job: Job): ScriptJobConfig['script']['scripts'] {
  const s = (job.config as Partial<ScriptJobConfig> | null)?.script?.scripts;
  return Array.isArray(s) ? s : [];
}

/**
 * The job's scripts: per script its weight and share, and with a result its
 * transactions, TPS and errors; then each script's text as it ran. A build
 * (pgbench -i) runs no script: no section.
 */
function scriptsSection(d: ReportData): Html | '' {
  if (d.job.type !== 'run') return '';
  const scripts = storedScripts(d.job);
  if (!scripts.length) return '';
  const r = isScriptResult(d.job.result) ? d.job.result : undefined;
  const total = scripts.reduce((a, s) => a + s.weight, 0);
  const header = ['script', num('weight'), num('share'), ...(r ? [num('transactions'), num('TPS'), num('errors')] : [])];
  const rows = scripts.map((s) => {
    const x = r?.scripts.find((o) => o.name === s.name);
    return [s.name, num(int(s.weight)), num(total > 0 ? `${fixed((100 * s.weight) / total, 1)}%` : ''), ...(r ? [num(int(x?.transactions ?? 0)), num(fixed(x?.tps ?? 0, 1)), num(int(x?.errors ?? 0))] : [])];
  });
  const texts = scripts.map(
    (s) => html`<h3 class="mono">${s.name}</h3><p class="muted">weight ${s.weight}${s.builtin ? html` · pgbench's built-in ${s.builtin}` : ''}</p><pre class="out">${s.text}</pre>`,
  );
  return html`<section id="scripts"><h2>Scripts</h2>${table(header, rows)}${texts}</section>`;
}

export const scriptReport: WorkloadReport = {
  figures,
  sections: (d) => [scriptsSection(d)],
  vus: (job) => {
    const v = (job.config as Partial<ScriptJobConfig> | null)?.script?.vus;
    return typeof v === 'number' ? v : undefined;
  },
};
