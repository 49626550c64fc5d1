import { isTproccResult } from '@sledge/protocol';
import type { ReportData } from './data.js';
import { html, type Html } from './escape.js';
import { fixed, int, ms } from './format.js';
import { chartableEngine, clientRatesOption, tcountOption, timingBoxOption, tpmLabel } from './job-charts.js';
import { themedChart } from './svg.js';
import { num, table } from './tables.js';
import { jobEnd, phaseBands, since } from './timeline.js';

/** The transaction counter over time (NOPM, TPM) and the client's rates by type. */
export function throughputSection(d: ReportData, t0: number): Html | '' {
  const engine = chartableEngine(d.engine);
  if (!engine.length && !d.client.length) return '';
  const t = since(t0);
  const end = jobEnd(d, t0);
  const r = d.job.result;
  const label = tpmLabel(d.job.engine, isTproccResult(r) ? r.tpmSource : undefined);
  const charts: Html[] = [];
  if (engine.length) charts.push(themedChart(`NOPM and ${label} over time (shaded: rampup, measured window)`, (p) => tcountOption({ engine, t, bands: phaseBands(d, t0, p), tpmLabel: label, end }, p)));
  if (d.client.length) charts.push(themedChart('Transactions per second by type (client side)', (p) => clientRatesOption(d.client, t, end, p), { width: 760, height: 240 }));
  const peak = engine.reduce((a, s) => Math.max(a, s.nopm), 0);
  const avg = engine.length ? engine.reduce((a, s) => a + s.nopm, 0) / engine.length : undefined;
  const stats = engine.length
    ? table(['samples', num('NOPM mean'), num('NOPM peak'), num('TPM mean')], [[String(engine.length), num(int(avg)), num(int(peak)), num(int(engine.reduce((a, s) => a + s.tpm, 0) / engine.length))]])
    : '';
  return html`<section id="throughput"><h2>Throughput</h2>${charts}${stats}</section>`;
}

/** The time profile: response-time percentiles per transaction (HammerDB's JOBTIMING summary rows). */
export function timingSection(d: ReportData): Html | '' {
  if (!d.timings.length) return '';
  const rows = d.timings.map((r) => [
    r.proc,
    num(int(r.calls)),
    num(ms(r.minMs)),
    num(ms(r.avgMs)),
    num(ms(r.p50Ms)),
    num(ms(r.p95Ms)),
    num(ms(r.p99Ms)),
    num(ms(r.maxMs)),
    num(ms(r.sdMs)),
    num(fixed(r.ratioPct, 2)),
  ]);
  const height = 60 + d.timings.length * 36;
  return html`<section id="timing"><h2>Time profile</h2>
${themedChart('Response time per transaction (box p25–p75, median, whiskers min–p99)', (p) => timingBoxOption(d.timings, p), { width: 760, height })}
${table(['transaction', num('calls'), num('min ms'), num('avg ms'), num('p50 ms'), num('p95 ms'), num('p99 ms'), num('max ms'), num('sd ms'), num('% of time')], rows)}</section>`;
}
