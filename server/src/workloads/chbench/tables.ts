import type { QuerySession } from '@sledge/core';
import { CHBENCH_COLUMNS, CHBENCH_TABLES, ChbenchGenerator, chbenchUnits, type ChbenchTable } from '@sledge/core/chbench';
import type { ChbenchFiles } from './sql.js';

/** Rows each extra table holds after a build (REGION 5, NATION 62, SUPPLIER 10,000). */
export const CHBENCH_EXPECTED_ROWS: Readonly<Record<ChbenchTable, number>> = { region: 5, nation: 62, supplier: 10_000 };

/** Create REGION, NATION and SUPPLIER, load them from the job's seed, then add their keys and indexes. Returns rows per table. */
export async function loadExtraTables(s: QuerySession, files: ChbenchFiles, seed: number, mon: (text: string) => void): Promise<Record<ChbenchTable, number>> {
  for (const sql of files.tables) await s.exec(sql);
  const gen = new ChbenchGenerator({ seed }, 'tuples');
  const rows = { region: 0, nation: 0, supplier: 0 };
  for (const unit of chbenchUnits()) {
    for (const t of gen.generate(unit)) {
      await s.insertRows(t.table, CHBENCH_COLUMNS[t.table], t.data as (string | number | null)[][]);
      rows[t.table] += t.rows;
      mon(`Loaded ${t.rows} rows into ${t.table.toUpperCase()}`);
    }
  }
  for (const sql of files.indexes) await s.exec(sql);
  return rows;
}

/** Rows of each extra table, or null for a table that does not exist (the query fails). */
export async function extraTableCounts(s: QuerySession, files: ChbenchFiles): Promise<Record<ChbenchTable, number | null>> {
  const out = {} as Record<ChbenchTable, number | null>;
  for (const t of CHBENCH_TABLES) {
    try {
      const r = await s.query({ query: 0, statements: [{ sql: files.check[`rows_${t}`]!, timed: true }] }, { fetch: true });
      out[t] = Number(r.data?.[0]?.[0] ?? 0);
    } catch {
      out[t] = null;
    }
  }
  return out;
}

/** Drop the three extra tables (idempotent: the engine's drop.sql). */
export async function dropExtraTables(s: QuerySession, files: ChbenchFiles): Promise<void> {
  for (const sql of files.drop) await s.exec(sql);
}
