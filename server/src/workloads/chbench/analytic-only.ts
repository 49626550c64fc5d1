import { tproccHooks } from '@sledge/core';
import type { ChbenchJobConfig, ChbenchResult } from '@sledge/protocol';
import type { JobEnv } from '../../engine/job-types.js';
import { PhaseClock } from '../../runner/phase-clock.js';
import { validityLines } from '../../runner/validity-lines.js';
import { analyticOnlyValidity } from './analytic-validity.js';
import { analyticCompanion } from './analytic.js';
import { chbenchTarget } from './sql.js';

/** Never settles: no VUs end this run early, only a stop or a failed stream. */
const NO_VUS = new Promise<void>(() => undefined);

/**
 * A CH-benCHmark run with tprocc.vus 0: the analytic streams alone, for the
 * same rampup and measured window a mixed run has, on the same schema. It is
 * the only CH-benCHmark run on an engine that runs no TPROC-C transactions
 * (TproccHooks.noTransactions, DuckDB), and on any engine the analytic
 * baseline without transactions. The result is a CH-benCHmark result with no
 * transactional figures (NOPM, TPM and VUs 0), the streams' `analytic`, and a
 * validity verdict of the streams (analytic-validity.ts).
 */
export async function runAnalyticOnly(env: JobEnv<ChbenchJobConfig>): Promise<'completed' | 'stopped'> {
  const { ctx, cfg, driver, stop } = env;
  const o = cfg.tprocc;
  const mon = (text: string) => ctx.output(1, text);
  const hooks = tproccHooks(driver);
  const admin = await hooks.openAdmin(chbenchTarget(cfg), mon);
  try {
    const version = await admin.serverVersion();
    ctx.update({ engineVersion: version });
    const state = await admin.schemaState();
    mon(`No TPROC-C virtual users (tprocc.vus 0): the analytic streams alone${hooks.noTransactions ? ` (${driver.engine} runs no TPROC-C transactions)` : ''}`);
    mon(`DBVersion:${version}`);
    const companion = analyticCompanion(env, { firstVu: 2 });
    const clock = new PhaseClock(stop, NO_VUS, mon);
    const early = (): 'stopped' => {
      const failed = companion.failure();
      if (failed) throw failed;
      mon('Run stopped before the end of the measured window: no result');
      return 'stopped';
    };
    try {
      companion.start();
      ctx.status('rampup');
      mon(`Beginning rampup time of ${o.rampup} minutes`);
      if (o.rampup > 0 && !(await clock.sleepMinutes(o.rampup, (k) => `Rampup ${k} minutes complete ...`))) return early();
      mon('Rampup complete, the measured window starts.');
      companion.windowStart();
      const t0 = performance.now();
      ctx.status('measuring');
      mon(`Timing test period of ${o.duration} in minutes`);
      if (!(await clock.sleepMinutes(o.duration, (k) => `${k} ...,`))) return early();
      await companion.windowEnd();
      const failed = companion.failure();
      if (failed) throw failed;
      const seconds = (performance.now() - t0) / 1000;
      const c = companion.result(seconds);
      for (const line of c.lines) mon(line);
      const analytic = (c.fields as Pick<ChbenchResult, 'analytic'>).analytic;
      const validity = analyticOnlyValidity(analytic, seconds);
      for (const line of validityLines(validity)) mon(line);
      const result: ChbenchResult = {
        nopm: 0,
        tpm: 0,
        activeVus: 0,
        tpmSource: driver.features(cfg.target).tpmSource,
        line: 'TEST RESULT : no TPROC-C transactions (tprocc.vus 0): the analytic streams ran alone',
        measuredSeconds: Math.round(seconds * 1000) / 1000,
        warehouses: state.warehouses,
        analytic,
        validity,
      };
      mon(result.line);
      ctx.result(result, []);
      return 'completed';
    } finally {
      await companion.close();
    }
  } finally {
    await admin.close();
  }
}
