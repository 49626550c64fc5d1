import type { TprochHooks } from '@sledge/core';
import type { Flavour, MyTarget } from '../engine/flavour.js';
import { MyTprochAdmin } from './admin.js';
import { MyTprochLoader } from './loader.js';
import { tprochSqlFor, type TprochSqlSet } from './sql.js';
import { openMyTprochStream } from './stream.js';

/**
 * TPROC-H on one MySQL-family flavour: the database created whole, LOAD
 * DATA LOCAL INFILE of '|' separated rows, keys and ANALYZE TABLE after the
 * load, streams with the engine's statement timeout and KILL QUERY.
 */
export function mysqlFamilyTprochHooks<T extends MyTarget>(flavour: Flavour<T['engine']>): TprochHooks<T> {
  let set: TprochSqlSet | undefined;
  const sql = (): TprochSqlSet => (set ??= tprochSqlFor(flavour));
  return {
    // Neither MySQL nor MariaDB has a per-session degree of parallelism for these queries.
    features: { dop: false },
    bulkFormat: () => 'csv',
    openAdmin: async (target, log) => new MyTprochAdmin(target, flavour, sql(), log),
    openLoader: (target, log) => MyTprochLoader.open(target, flavour, sql(), log),
    openStream: (target, opts) => openMyTprochStream(target, flavour, sql(), opts),
  };
}
