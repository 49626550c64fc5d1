import { tproccHooks, tproccTarget } from '@sledge/core';
import { TX_TYPES, isStandardMix, mixText, validityOf, type CheckItem, type TproccJobConfig, type TproccMix, type TproccResult, type Validity, type ValidityCheck } from '@sledge/protocol';
import type { ValidityInput } from '../../runner/vu-run.js';
import { checkItems } from './check.js';

/**
 * TPROC-C's validity verdict of a timed run (docs/results.md, "Validity
 * verdict"): each check is a pure function of what the run measured, with
 * the measured value and the expected band in its detail.
 */

const pct = (x: number, digits = 2) => `${(x * 100).toFixed(digits)}%`;
const check = (id: string, title: string, status: ValidityCheck['status'], detail: string): ValidityCheck => ({ id, title, status, detail });

/** Expected new-order rollback share: 1% of new orders use an unused item (hammerdb.md §5.4). */
export const NEWORDER_ROLLBACK_SHARE = 0.01;
/** Fewer new orders than this: the rollback share is not judged. */
export const MIN_NEWORDERS = 200;

/** New-order rollback share near 1%: pass within 3 standard errors (+0.2 points), warn within 5 (+0.5 points), else fail. */
export function rollbackCheck(neworders: number, rollbacks: number): ValidityCheck {
  const id = 'neworder-rollbacks';
  const title = 'New-order rollback share';
  if (neworders < MIN_NEWORDERS) return check(id, title, 'skip', `${neworders} new orders in the window: at least ${MIN_NEWORDERS} are needed to judge a 1% share`);
  const p = NEWORDER_ROLLBACK_SHARE;
  const share = rollbacks / neworders;
  const se = Math.sqrt((p * (1 - p)) / neworders);
  const pass = 3 * se + 0.002;
  const warn = 5 * se + 0.005;
  const dev = Math.abs(share - p);
  const band = `expected ${pct(p, 0)} ± ${pct(pass)} (warn beyond, fail beyond ± ${pct(warn)})`;
  const status = dev <= pass ? 'pass' : dev <= warn ? 'warn' : 'fail';
  return check(id, title, status, `${rollbacks} of ${neworders} new orders rolled back (${pct(share)}); ${band}`);
}

/** Achieved transaction mix vs the configured weights: each type's share within 4 standard errors (+0.5 points) passes, within 8 (+2 points) warns, else fails. */
export function mixCheck(mix: TproccMix, counts: Record<string, number>): ValidityCheck {
  const id = 'mix';
  const title = 'Achieved transaction mix';
  const total = TX_TYPES.reduce((a, t) => a + (counts[t] ?? 0), 0);
  const weights = TX_TYPES.reduce((a, t) => a + mix[t], 0);
  if (total < 100 || weights <= 0) return check(id, title, 'skip', `${total} transactions in the window: at least 100 are needed to judge the mix`);
  let worst: ValidityCheck['status'] = 'pass';
  const parts: string[] = [];
  for (const t of TX_TYPES) {
    const p = mix[t] / weights;
    const q = (counts[t] ?? 0) / total;
    const se = Math.sqrt((p * (1 - p)) / total);
    const dev = Math.abs(q - p);
    const s = dev <= 4 * se + 0.005 ? 'pass' : dev <= 8 * se + 0.02 ? 'warn' : 'fail';
    if (s === 'fail' || (s === 'warn' && worst === 'pass')) worst = s;
    parts.push(`${t} ${pct(q, 1)} (configured ${pct(p, 1)}${s === 'pass' ? '' : `, ${s}`})`);
  }
  return check(id, title, worst, `${total} transactions: ${parts.join(', ')}; band per type: configured share ± 4 standard errors + 0.5 points (warn to ± 8 + 2 points)`);
}

/**
 * Comparability: HammerDB's standard mix (10/10/1/1/1, in proportion) passes;
 * any other tprocc.mix warns that this run's NOPM and TPM measure a different
 * workload and are not comparable with HammerDB's standard runs.
 */
export function standardMixCheck(mix: TproccMix): ValidityCheck {
  const id = 'standard-mix';
  const title = 'Standard transaction mix';
  if (isStandardMix(mix)) return check(id, title, 'pass', `the mix is HammerDB's standard 10/10/1/1/1 (${mixText(mix)})`);
  return check(id, title, 'warn', `the mix (${mixText(mix)}) is not HammerDB's standard 10/10/1/1/1: NOPM and TPM are not comparable with HammerDB's standard runs, only with runs of the same mix`);
}

/**
 * NOPM (the engine's district order ids) against the client's own new orders
 * per minute: within 3% plus the orders in flight at the window's two ends
 * passes, within 10% warns, else fails (another run on the same schema, or
 * orders lost).
 */
export function nopmCheck(nopm: number, clientNewordersPerMin: number, vus: number, minutes: number): ValidityCheck {
  const id = 'nopm-vs-client';
  const title = 'NOPM against the client\'s new orders';
  if (minutes <= 0 || clientNewordersPerMin <= 0) return check(id, title, 'skip', 'no new orders were counted in the window');
  const slack = (2 * vus) / minutes;
  const dev = Math.abs(nopm - clientNewordersPerMin);
  const passBand = 0.03 * clientNewordersPerMin + slack;
  const warnBand = 0.1 * clientNewordersPerMin + slack;
  const status = dev <= passBand ? 'pass' : dev <= warnBand ? 'warn' : 'fail';
  const why = status === 'pass' ? '' : nopm > clientNewordersPerMin ? ': orders were added by something other than this run (another run on the same schema?)' : ': the schema advanced by fewer orders than the client committed';
  return check(id, title, status, `NOPM ${Math.round(nopm)} vs ${Math.round(clientNewordersPerMin)} new orders per minute counted by the client; expected within ± ${Math.round(passBand)} (3% plus the orders in flight at the window's ends), warn to ± ${Math.round(warnBand)}${why}`);
}

/** Engine TPM above this multiple of the client's own transactions per minute: another workload was on the server. */
export const FOREIGN_LOAD_RATIO = 1.3;

/**
 * Foreign load: the engine's server-wide TPM against the client's own
 * commits + rollbacks per minute. Above 1.3x (and more than 60 TPM) warns
 * "another workload was on the server"; below 0.7x warns that the engine
 * counted fewer than the client committed.
 */
export function foreignLoadCheck(r: Pick<TproccResult, 'tpm' | 'tpmSource' | 'tpmCounterReset'>, clientTpm: number): ValidityCheck {
  const id = 'foreign-load';
  const title = 'Foreign load on the server';
  if (r.tpmSource !== 'engine') return check(id, title, 'skip', 'TPM is counted by the client (the engine has no server-wide transaction counter): nothing to compare');
  const resetNote = "the engine's transaction counter was reset during the window (a database dropped, a statistics reset or a restart)";
  if (r.tpmCounterReset && clientTpm <= 0) return check(id, title, 'warn', `${resetNote}: engine TPM cannot be compared with the client's`);
  if (clientTpm <= 0) return check(id, title, 'skip', 'the client counted no transactions in the window');
  const ratio = r.tpm / clientTpm;
  const band = `expected engine TPM ≤ ${FOREIGN_LOAD_RATIO}× the client's (and ≥ 0.7×)`;
  const measured = `engine TPM ${r.tpm} vs ${Math.round(clientTpm)} client commits+rollbacks per minute (${ratio.toFixed(2)}×)`;
  // Across a reset the engine TPM counts only the intervals in which the counter did not go back (the others as 0):
  // a lower bound. Above the band it still proves foreign load; anything else cannot be judged.
  if (r.tpmCounterReset) {
    if (ratio > FOREIGN_LOAD_RATIO && r.tpm - clientTpm > 60) return check(id, title, 'warn', `${measured}, a lower bound (${resetNote}): another workload was on the server; ${band}`);
    return check(id, title, 'warn', `${measured} (${resetNote}): engine TPM counts only the intervals without the reset, so it cannot be compared with the client's`);
  }
  if (ratio > FOREIGN_LOAD_RATIO && r.tpm - clientTpm > 60) return check(id, title, 'warn', `${measured}: another workload was on the server; ${band}`);
  if (ratio < 0.7) return check(id, title, 'warn', `${measured}: the engine counted fewer transactions than the client committed; ${band}`);
  return check(id, title, 'pass', `${measured}; ${band}`);
}

/** Client CPU at or above this share of min(worker threads, cores): the client is saturated. */
export const SATURATION_SHARE = 0.85;

/** Client saturation: the client process's CPU near one core per thread running VUs (or all the machine's cores) warns that the client may have limited throughput. */
export function saturationCheck(cpuMs: number | undefined, seconds: number, workers: number, cores: number, embedded: boolean): ValidityCheck {
  const id = 'client-saturation';
  const title = 'Client saturation';
  if (cpuMs === undefined) return check(id, title, 'skip', "the virtual users ran on replicas: this server's CPU is not the clients'");
  if (embedded) return check(id, title, 'skip', "the engine runs inside the client process (TPM is counted client-side): the client's CPU includes the engine's work");
  if (seconds <= 0) return check(id, title, 'skip', 'no measured window');
  const used = cpuMs / 1000 / seconds;
  const capacity = Math.max(1, Math.min(workers, cores));
  const share = used / capacity;
  const measured = `client CPU ${used.toFixed(2)} cores over the window, ${pct(share, 0)} of ${capacity} (min of ${workers} VU thread(s), ${cores} cores)`;
  if (share >= SATURATION_SHARE) return check(id, title, 'warn', `${measured}: the client, not the database, may have limited throughput; expected < ${pct(SATURATION_SHARE, 0)}`);
  return check(id, title, 'pass', `${measured}; expected < ${pct(SATURATION_SHARE, 0)}`);
}

/** Least-squares slope of y over x, with its standard error (NaN with fewer than 3 points). */
export function slope(xs: number[], ys: number[]): { slope: number; se: number; mean: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  const b = sxx > 0 ? sxy / sxx : 0;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (ys[i]! - (my + b * (xs[i]! - mx))) ** 2;
  const se = n > 2 && sxx > 0 ? Math.sqrt(sse / (n - 2) / sxx) : Number.NaN;
  return { slope: b, se, mean: my };
}

/** Fewer interval samples than this: steady state is not judged. */
export const MIN_STEADY_SAMPLES = 5;

/**
 * Steady state: the least-squares trend of NOPM over the window's interval
 * samples. A trend whose change across the window is more than 10% of the
 * mean and significant (|slope| > 2 standard errors) warns; more than 30% fails.
 */
export function steadyCheck(samples: { ts: number; nopm: number }[]): ValidityCheck {
  const id = 'steady-state';
  const title = 'Steady state (NOPM trend)';
  if (samples.length < MIN_STEADY_SAMPLES) return check(id, title, 'skip', `${samples.length} NOPM interval sample(s) in the window: at least ${MIN_STEADY_SAMPLES} are needed (a longer duration or a shorter transaction counter interval)`);
  const t0 = samples[0]!.ts;
  const xs = samples.map((s) => (s.ts - t0) / 60_000);
  const ys = samples.map((s) => s.nopm);
  const fit = slope(xs, ys);
  const span = xs[xs.length - 1]! - xs[0]!;
  if (fit.mean <= 0) return check(id, title, 'skip', 'NOPM was 0 across the window');
  const drift = (fit.slope * span) / fit.mean;
  const significant = !Number.isFinite(fit.se) || fit.se === 0 ? fit.slope !== 0 : Math.abs(fit.slope) > 2 * fit.se;
  const measured = `NOPM trend ${fit.slope >= 0 ? '+' : ''}${Math.round(fit.slope)} per minute over ${samples.length} samples (${drift >= 0 ? '+' : ''}${pct(drift, 1)} of the mean ${Math.round(fit.mean)} across the window${significant ? ', significant' : ', not significant'})`;
  const band = 'expected no significant trend beyond ± 10% of the mean (fail beyond ± 30%)';
  const status = !significant || Math.abs(drift) <= 0.1 ? 'pass' : Math.abs(drift) <= 0.3 ? 'warn' : 'fail';
  return check(id, title, status, `${measured}; ${band}`);
}

/** Errors in the window against its transactions: none passes, under 1% warns, more fails. */
export function errorsCheck(errors: number, transactions: number): ValidityCheck {
  const id = 'errors';
  const title = 'Transaction errors';
  const share = transactions + errors > 0 ? errors / (transactions + errors) : 0;
  const detail = `${errors} error(s) in ${transactions + errors} attempted transactions (${pct(share)}); expected 0 (warn below 1%)`;
  return check(id, title, errors === 0 ? 'pass' : share < 0.01 ? 'warn' : 'fail', detail);
}

/** TPROC-C's run-time shares the VU loop does not count: skipped, with the reason. */
export function uncountedChecks(): ValidityCheck[] {
  const why = 'not counted by the virtual users (the loop counts transactions by type, commits, rollbacks and errors only)';
  return [
    check('order-lines', 'Order lines per order (9.5-10.5)', 'skip', why),
    check('remote-lines', 'Remote order lines (~1%)', 'skip', why),
    check('remote-payments', 'Remote payments (~15%)', 'skip', why),
    check('by-name', 'By-name customer lookups (~60%)', 'skip', why),
  ];
}

/** The consistency conditions after the window (tprocc.verify): checkschema's items as one check. */
export function consistencyCheck(items: CheckItem[] | undefined, error?: string): ValidityCheck {
  const id = 'consistency';
  const title = 'Schema consistency after the run (C1-C4)';
  if (error !== undefined) return check(id, title, 'fail', `the checks could not run: ${error}`);
  if (!items) return check(id, title, 'skip', 'not requested (tprocc.verify, CLI --verify)');
  const failed = items.filter((i) => !i.ok);
  if (failed.length) return check(id, title, 'fail', `${failed.length} of ${items.length} checks failed: ${failed.map((f) => `${f.name} (${f.detail})`).join('; ')}`);
  return check(id, title, 'pass', `all ${items.length} checkschema conditions held`);
}

/** The checks from the run's measurements (no database access). */
export function runChecks(mix: TproccMix, input: Omit<ValidityInput<TproccJobConfig>, 'env'>): ValidityCheck[] {
  const { result, ops, window: w, client, vus, features, samples } = input;
  const minutes = w.seconds / 60;
  const counts = Object.fromEntries(ops.map((o, i) => [o, w.perOp[i] ?? 0]));
  const no = ops.indexOf('neworder');
  const neworders = no >= 0 ? (w.perOp[no] ?? 0) : 0;
  const noRollbacks = no >= 0 ? (w.rollbacksPerOp[no] ?? 0) : 0;
  const clientTx = w.commits + w.rollbacks;
  const nopmSamples = (samples as { ts?: unknown; nopm?: unknown }[]).filter((s): s is { ts: number; nopm: number } => typeof s.ts === 'number' && typeof s.nopm === 'number');
  return [
    mix.neworder > 0 ? rollbackCheck(neworders, noRollbacks) : check('neworder-rollbacks', 'New-order rollback share', 'skip', 'the mix has no new orders'),
    mixCheck(mix, counts),
    standardMixCheck(mix),
    nopmCheck(result.nopm, minutes > 0 ? (neworders - noRollbacks) / minutes : 0, vus, minutes),
    foreignLoadCheck(result, minutes > 0 ? clientTx / minutes : 0),
    saturationCheck(client.cpuMs, w.seconds, client.workers, client.cores, features.tpmSource === 'client'),
    steadyCheck(nopmSamples),
    errorsCheck(w.errors, clientTx),
    ...uncountedChecks(),
  ];
}

/** TPROC-C's validity verdict: the run's checks, then the consistency conditions when tprocc.verify asks for them. */
export async function tproccValidity(input: ValidityInput<TproccJobConfig>): Promise<Validity> {
  const { env } = input;
  const o = env.cfg.tprocc;
  const checks = runChecks(o.mix, input);
  let consistency: ValidityCheck;
  if (!o.verify) consistency = consistencyCheck(undefined);
  else {
    const mon = (text: string) => env.ctx.output(1, text);
    try {
      const admin = await tproccHooks(env.driver).openAdmin(tproccTarget(env.cfg.target, o.schema), mon);
      try {
        const state = await admin.schemaState();
        consistency = consistencyCheck(await checkItems(admin, state.warehouses, mon));
      } finally {
        await admin.close();
      }
    } catch (e) {
      consistency = consistencyCheck(undefined, e instanceof Error ? e.message : String(e));
    }
  }
  return validityOf([...checks, consistency]);
}
