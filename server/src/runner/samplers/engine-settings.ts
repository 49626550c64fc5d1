import { settingsFromRows, type Driver } from '@sledge/core';
import { CHANGE_METRICS, type EngineSettingsRecord, type WorkloadConfig } from '@sledge/protocol';
import type { JobContext } from '../../engine/job-context.js';
import { errorText, openReader, rowsOf, settingsStatements } from './engine-sql.js';

/** Statements of settings.sql named setting_<name>: one setting each, the value in the first column of the first row. */
const ONE_SETTING = /^setting_(.+)$/;

/**
 * Read the engine's settings as a session of the target's user on its
 * database sees them (settings.sql: `reset_session` first where the engine has
 * one, then `settings` and every `setting_<name>`), with the settings that can
 * hold a secret withheld by name. Never throws: a failure is the record's
 * `unavailable`.
 */
export async function readEngineSettings(cfg: WorkloadConfig, driver: Driver, log: (text: string) => void = () => undefined): Promise<EngineSettingsRecord> {
  const engine = cfg.target.engine;
  const source = `packages/sql/${engine}/engine/settings.sql`;
  const none = (why: string): EngineSettingsRecord => ({ ts: Date.now(), source, settings: [], withheld: [], unavailable: why });
  const st = settingsStatements(engine);
  if (!st?.settings) return none(`${engine} has no settings statement`);
  let s;
  try {
    s = await openReader(cfg, driver, 'settings', log);
  } catch (e) {
    return none(errorText(e));
  }
  try {
    const reset = st.reset_session ? [st.reset_session] : [];
    const rows = await rowsOf(s, st.settings, reset);
    for (const [key, sql] of Object.entries(st)) {
      const m = ONE_SETTING.exec(key);
      if (!m) continue;
      const r = await rowsOf(s, sql, reset);
      if (r[0]) rows.push([m[1], r[0][0], null, 'pragma']);
    }
    const { settings, withheld } = settingsFromRows(rows);
    return { ts: Date.now(), source, settings, withheld };
  } catch (e) {
    return none(`reading the settings failed: ${errorText(e)}`);
  } finally {
    await s.close().catch(() => undefined);
  }
}

/** Read and store the run's settings (metric kind engine-settings), saying so in the output. */
export async function recordEngineSettings(ctx: JobContext, cfg: WorkloadConfig, driver: Driver): Promise<void> {
  const rec = await readEngineSettings(cfg, driver, (l) => ctx.output(1, l));
  ctx.metric(CHANGE_METRICS.settings, [{ ts: rec.ts, data: rec }]);
  if (rec.unavailable) ctx.output(1, `Engine settings: not recorded: ${rec.unavailable}`);
  else ctx.output(1, `Engine settings: recorded ${rec.settings.length}${rec.withheld.length ? `; withheld (can hold a secret): ${rec.withheld.join(', ')}` : ''}`);
}
