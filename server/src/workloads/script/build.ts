import { SledgeError, type ScriptJobConfig } from '@sledge/protocol';
import type { QuerySession } from '@sledge/core';
import type { JobBody } from '../../engine/job-types.js';
import { scriptFileStatements, withParamSession } from './sql.js';

/** pgbench's row counts per unit of scale. */
export const PGBENCH_ROWS = { branches: 1, tellers: 10, accounts: 100000 } as const;
/** Accounts per insertRows call (each one transaction). */
const ACCOUNTS_CHUNK = 10000;

/** The rows of pgbench's tables at a scale: balances 0, bid as pgbench assigns it, filler blank (accounts) or NULL. */
async function loadRows(q: QuerySession, scale: number, mon: (t: string) => void, stopped: () => boolean): Promise<boolean> {
  const nb = PGBENCH_ROWS.branches * scale;
  const nt = PGBENCH_ROWS.tellers * scale;
  const na = PGBENCH_ROWS.accounts * scale;
  await q.insertRows('pgbench_branches', ['bid', 'bbalance', 'filler'], Array.from({ length: nb }, (_, i) => [i + 1, 0, null]));
  await q.insertRows('pgbench_tellers', ['tid', 'bid', 'tbalance', 'filler'], Array.from({ length: nt }, (_, i) => [i + 1, Math.floor(i / PGBENCH_ROWS.tellers) + 1, 0, null]));
  for (let from = 0; from < na; from += ACCOUNTS_CHUNK) {
    if (stopped()) return false;
    const n = Math.min(ACCOUNTS_CHUNK, na - from);
    await q.insertRows('pgbench_accounts', ['aid', 'bid', 'abalance', 'filler'], Array.from({ length: n }, (_, k) => [from + k + 1, Math.floor((from + k) / PGBENCH_ROWS.accounts) + 1, 0, '']));
    if ((from + n) % PGBENCH_ROWS.accounts === 0 || from + n === na) mon(`${from + n} of ${na} tuples (${Math.round(((from + n) * 100) / na)}%) done`);
  }
  return true;
}

/**
 * pgbench's init (`pgbench -i -s N`) as a build: drop the four pgbench
 * tables, create them, load branches, tellers and accounts with pgbench's
 * row counts (history empty), then the primary keys. As pgbench, it needs
 * the database to exist (SQLite creates its file).
 */
export const buildJob: JobBody<ScriptJobConfig> = async (env) => {
  const { cfg, driver, ctx, stop } = env;
  const mon = (t: string) => ctx.output(1, t);
  const scale = Math.max(1, cfg.script.scale);
  if (!driver.openQuerySession) throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${driver.engine} driver has no query session to load pgbench's tables`, { field: 'target.engine' });
  ctx.status('running');
  const t0 = performance.now();
  mon(`pgbench init, scale ${scale}: ${PGBENCH_ROWS.branches * scale} branches, ${PGBENCH_ROWS.tellers * scale} tellers, ${PGBENCH_ROWS.accounts * scale} accounts`);
  mon('dropping old tables, creating tables');
  await withParamSession(driver, cfg, 'script-build', async (s) => {
    for (const st of [...scriptFileStatements(cfg, 'drop.sql'), ...scriptFileStatements(cfg, 'tables.sql')]) await s.run(st, []);
  }, { create: true });
  mon('generating data');
  const q = await driver.openQuerySession(cfg.target as never, { name: 'script-build', dop: 1, queryTimeoutSec: 0, log: mon });
  let loaded: boolean;
  try {
    loaded = await loadRows(q, scale, mon, () => stop.requested);
  } finally {
    await q.close();
  }
  if (!loaded) {
    mon('Build stopped: the pgbench tables are incomplete; build again');
    return 'stopped';
  }
  mon('creating primary keys');
  await withParamSession(driver, cfg, 'script-build', async (s) => {
    for (const st of scriptFileStatements(cfg, 'keys.sql')) await s.run(st, []);
  });
  const secs = (performance.now() - t0) / 1000;
  mon(`done in ${secs.toFixed(1)} s`);
  ctx.update({ summary: `pgbench tables at scale ${scale} built in ${secs.toFixed(1)} s` });
  return 'completed';
};
