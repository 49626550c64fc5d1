import { TPROCH_COLUMNS, type Logger, type TprochGeneratedTable, type TprochLoader, type Value } from '@sledge/core';
import type { SqliteTarget, TprochTable } from '@sledge/protocol';
import type BetterSqlite3 from 'better-sqlite3';
import { openExisting } from '../engine/connection.js';
import { schemaMissingIfNoTable } from '../engine/errors.js';
import type { Db } from '../engine/library.js';
import { LOADER_BUSY_MS, LOADER_TUNING } from '../engine/loader.js';

type Insert = BetterSqlite3.Statement<[readonly Value[]]>;

/**
 * TPROC-H loader: prepared INSERTs naming TPROCH_COLUMNS, one transaction per
 * generated unit, with the TPROC-C loader's connection tuning (synchronous
 * off, large cache; build workers take turns on the write lock).
 */
class Loader implements TprochLoader {
  private readonly inserts = new Map<TprochTable, Insert>();

  constructor(private readonly db: Db) {}

  private insert(table: TprochTable): Insert {
    let st = this.inserts.get(table);
    if (!st) {
      const cols = TPROCH_COLUMNS[table];
      st = this.db.prepare<[readonly Value[]]>(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
      this.inserts.set(table, st);
    }
    return st;
  }

  async load(tables: readonly TprochGeneratedTable[]): Promise<void> {
    for (const t of tables) {
      if (!Array.isArray(t.data)) throw new TypeError(`the SQLite loader takes 'tuples' rows; ${t.table} came as ${typeof t.data}`);
    }
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const t of tables) {
        const insert = this.insert(t.table);
        for (const row of t.data as Value[][]) insert.run(row);
      }
      this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw schemaMissingIfNoTable(e, this.db.name);
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

export function openTprochLoader(target: SqliteTarget, _log: Logger): TprochLoader {
  const busyTimeoutMs = Math.max(target.busyTimeoutMs, LOADER_BUSY_MS);
  return new Loader(openExisting({ ...target, busyTimeoutMs }, LOADER_TUNING));
}
