import { tproccTarget, type Driver, type QuerySession } from '@sledge/core';
import { SledgeError, type ChbenchJobConfig } from '@sledge/protocol';
import { placeholderSyntax, sqlSet, type SqlSet } from '@sledge/sql';

/** CH-benCHmark's files of one engine (packages/sql/<engine>/chbench/): tables, indexes, drop, the 22 queries. */
export interface ChbenchFiles {
  tables: string[];
  indexes: string[];
  drop: string[];
  queries: Readonly<Record<string, string>>;
  /** check.sql: rows_<table> counts each extra table. */
  check: Readonly<Record<string, string>>;
}

const { fill } = placeholderSyntax(/\{\{([a-z_]+)\}\}/g, (n) => `{{${n}}}`);

/** The job's TPROC-C target (its schema options applied): the tables live in TPROC-C's database. */
export const chbenchTarget = (cfg: ChbenchJobConfig) => tproccTarget(cfg.target, cfg.tprocc.schema);

/** The job's engine's files, placeholders filled from the job (MySQL/MariaDB: TPROC-C's storage engine). */
export function chbenchFiles(cfg: ChbenchJobConfig): ChbenchFiles {
  const set: SqlSet = sqlSet(cfg.target.engine, 'chbench', { fill });
  const t: object = chbenchTarget(cfg);
  const vars = { storage_engine: 'storageEngine' in t && typeof t.storageEngine === 'string' ? t.storageEngine : 'InnoDB' };
  return { tables: set.script('tables.sql', vars), indexes: set.script('indexes.sql'), drop: set.script('drop.sql'), queries: set.statements('queries.sql'), check: set.statements('check.sql') };
}

/** An engine-level query session on the job's database (the driver's openQuerySession capability). */
export async function openChbenchSession(driver: Driver, cfg: ChbenchJobConfig, name: string, o: { dop?: number; queryTimeoutSec?: number; log: (t: string) => void }): Promise<QuerySession> {
  if (!driver.openQuerySession) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${driver.engine} driver has no query sessions, which CH-benCHmark needs: choose another engine`, { field: 'target.engine' });
  }
  return await driver.openQuerySession(chbenchTarget(cfg), { name, dop: o.dop ?? 1, queryTimeoutSec: o.queryTimeoutSec ?? 0, log: o.log });
}
