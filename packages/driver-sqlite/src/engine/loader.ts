import type { GeneratedTable, LoaderSession, Logger } from '@sledge/core';
import { TPROCC_COLUMNS, type Value } from '@sledge/core';
import type { SqliteTarget, TproccTable } from '@sledge/protocol';
import type BetterSqlite3 from 'better-sqlite3';
import { openExisting, type Tuning } from './connection.js';
import { schemaMissingIfNoTable } from './errors.js';
import type { Db } from './library.js';

/**
 * Loader connections trade durability for speed; a build that dies is
 * deleted and built again. synchronous=OFF (WAL keeps the file consistent
 * through a process crash; only a power loss could damage it) and a large
 * page cache. A rollback journal kept in memory was measured too: no faster
 * through the driver, and not crash-safe (README.md).
 *
 * Several build workers share the file and take turns on the write lock,
 * one unit (at most 10000 stock rows or one district's orders) per
 * transaction (SQLite's busy handler decides who is next; a build has no
 * latency to protect), so a loader waits longer for the lock than a VU: at
 * least LOADER_BUSY_MS.
 */
export const LOADER_TUNING: Tuning = {
  journal: 'wal',
  cacheKiB: 256 * 1024,
  mmapBytes: 1024 * 1024 * 1024,
  synchronous: 'off',
};
export const LOADER_BUSY_MS = 600_000;

type Insert = BetterSqlite3.Statement<[readonly Value[]]>;

class Loader implements LoaderSession {
  private readonly inserts = new Map<TproccTable, Insert>();
  private readonly begin;
  private readonly commit;
  private readonly rollback;

  constructor(private readonly db: Db) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /** INSERT naming the generator's columns (TPROCC_COLUMNS order), prepared once per table. */
  private insert(table: TproccTable): Insert {
    let st = this.inserts.get(table);
    if (!st) {
      const cols = TPROCC_COLUMNS[table];
      st = this.db.prepare<[readonly Value[]]>(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
      this.inserts.set(table, st);
    }
    return st;
  }

  /** One unit, one transaction. */
  async load(tables: readonly GeneratedTable[]): Promise<void> {
    for (const t of tables) {
      if (!Array.isArray(t.data)) throw new TypeError(`the SQLite loader takes 'tuples' rows; ${t.table} came as ${typeof t.data}`);
    }
    this.begin.run();
    try {
      for (const t of tables) {
        const insert = this.insert(t.table);
        for (const row of t.data as Value[][]) insert.run(row);
      }
      this.commit.run();
    } catch (e) {
      if (this.db.inTransaction) this.rollback.run();
      throw schemaMissingIfNoTable(e, this.db.name);
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

export function openLoaderSession(target: SqliteTarget, _log: Logger): LoaderSession {
  const busyTimeoutMs = Math.max(target.busyTimeoutMs, LOADER_BUSY_MS);
  return new Loader(openExisting({ ...target, busyTimeoutMs }, LOADER_TUNING));
}
