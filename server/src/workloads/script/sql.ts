import type { Driver, ParamRow, ParamSession } from '@sledge/core';
import type { ScriptJobConfig } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';

/** packages/sql/<engine>/script/<file>: pgbench's tables dropped, created, keyed, as statements. */
export function scriptFileStatements(cfg: ScriptJobConfig, file: 'drop.sql' | 'tables.sql' | 'keys.sql'): string[] {
  return sqlSet(cfg.target.engine, 'script').script(file);
}

/** packages/sql/<engine>/script/check.sql: what the server reads of pgbench's tables. */
export function scriptCheckSql(cfg: ScriptJobConfig, name: 'branches' | 'balances'): string {
  return sqlSet<'check.sql'>(cfg.target.engine, 'script').statement('check.sql', name);
}

/** Run `fn` on a parameter session of the job's target, closed after. */
export async function withParamSession<T>(driver: Driver, cfg: ScriptJobConfig, name: string, fn: (s: ParamSession) => Promise<T>, o: { create?: boolean } = {}): Promise<T> {
  const s = await driver.openParamSession!(cfg.target as never, { name, log: () => undefined, ...(o.create ? { create: true } : {}) });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** pgbench's four balance sums (the invariant after tpcb-like runs: all equal). */
export async function pgbenchBalances(s: ParamSession, cfg: ScriptJobConfig): Promise<{ accounts: number; branches: number; tellers: number; history: number }> {
  const row: ParamRow = (await s.run(scriptCheckSql(cfg, 'balances'), []))[0] ?? {};
  const n = (k: string): number => Number(row[k] ?? 0);
  return { accounts: n('accounts'), branches: n('branches'), tellers: n('tellers'), history: n('history') };
}
