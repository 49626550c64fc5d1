import { checkScriptsOnDriver, parseJobScripts, type Driver } from '@sledge/core';
import { SledgeError, type ScriptJobConfig } from '@sledge/protocol';
import { builtinScript } from '@sledge/sql';
import { scriptCheckSql, withParamSession } from './sql.js';

/**
 * The script workload's checks before a job is stored (a build settles its scale, 1 by default); a run's also settle
 * what the job keeps: each built-in script's text is filled in (the job
 * holds every script it ran), every script is parsed (a mistake is a
 * SLEDGE_E_VALIDATION on `script.scripts[i].text` with line and column), the
 * engine must offer what the scripts use, and a scale of 0 becomes the
 * target's pgbench_branches row count (1 when there is no such table).
 */
export async function preflight(cfg: ScriptJobConfig, driver: Driver, { busy }: { busy: boolean }): Promise<void> {
  if (!driver.openParamSession) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${driver.engine} driver does not run scripts (it has no parameter session)`, { field: 'target.engine' });
  }
  for (const s of cfg.script.scripts) if (s.builtin) s.text = builtinScript(s.builtin);
  if (cfg.type === 'build') {
    cfg.script.scale = Math.max(1, cfg.script.scale);
    return;
  }
  if (cfg.type !== 'run') return;
  const scripts = parseJobScripts(cfg.script);
  checkScriptsOnDriver(scripts, driver);
  if (cfg.script.scale > 0) return;
  // Another job on the target: :scale 1 without opening a session (an in-process engine's file stays with that job).
  if (busy) {
    cfg.script.scale = 1;
    return;
  }
  cfg.script.scale = await withParamSession(driver, cfg, 'script-preflight', async (s) => {
    try {
      const rows = await s.run(scriptCheckSql(cfg, 'branches'), []);
      return Math.max(1, Number(rows[0]?.['n'] ?? 1));
    } catch {
      return 1; // no pgbench_branches: scripts of the user's own tables run with :scale 1, as pgbench's default
    }
  });
}
