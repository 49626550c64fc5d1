import type { Client } from 'pg';
import { TPROCC_ROUTINES, type CheckFacts, type DistrictFacts, type TproccRoutine, type WarehouseFacts } from '@sledge/core';
import { TPROCC_TABLES, type TproccTable } from '@sledge/protocol';
import type { PgTproccTarget } from './target.js';
import { renderVars, type Quoting } from '../engine/sql-text.js';
import { statement } from './sqlfiles.js';

type Row = Record<string, unknown>;

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const isTable = (s: string): s is TproccTable => (TPROCC_TABLES as readonly string[]).includes(s);
const isRoutine = (s: string): s is TproccRoutine => (TPROCC_ROUTINES as readonly string[]).includes(s);

async function rows(c: Client, sql: string): Promise<Row[]> {
  return (await c.query<Row>(sql)).rows;
}

/** No database (or no access to it): the facts checkschema reports as "not found". */
export function missingDatabaseFacts(): CheckFacts {
  return { databaseExists: false, tables: {}, maxWarehouse: null, indexed: {}, rowCounts: {}, routines: {}, warehouses: [] };
}

/**
 * Read what core's evaluateCheck needs (hammerdb.md §5.5) on the TPC user's
 * connection. Routines count only in the variant the target selects
 * (prokind 'f' for functions, 'p' for procedures); with target.noStoredProcs
 * none is needed. The warehouse samples are
 * read in one REPEATABLE READ snapshot so C1-C4 see a consistent state.
 */
export async function gatherCheckFacts(c: Client, t: PgTproccTarget, sample: readonly number[], q: Quoting): Promise<CheckFacts> {
  const facts = missingDatabaseFacts();
  facts.databaseExists = true;

  for (const r of await rows(c, statement('check.sql', 'tables'))) {
    const name = String(r['name']);
    if (isTable(name)) facts.tables[name] = true;
  }
  for (const table of TPROCC_TABLES) facts.tables[table] ??= false;

  for (const r of await rows(c, statement('check.sql', 'indexed_tables'))) {
    const name = String(r['name']);
    if (isTable(name)) facts.indexed[name] = true;
  }

  // target.noStoredProcs: the VUs send client.sql themselves, no routine is needed.
  const wantKind = t.storedProcs ? 'p' : 'f';
  for (const routine of TPROCC_ROUTINES) facts.routines[routine] = t.noStoredProcs;
  if (!t.noStoredProcs) {
    for (const r of await rows(c, statement('check.sql', 'routines'))) {
      const name = String(r['name']);
      if (isRoutine(name) && r['kind'] === wantKind) facts.routines[name] = true;
    }
  }

  if (TPROCC_TABLES.some((table) => !facts.tables[table])) return facts;

  const counts = (await rows(c, statement('check.sql', 'row_counts')))[0] ?? {};
  for (const table of TPROCC_TABLES) facts.rowCounts[table] = num(counts[table]);
  const maxW = (await rows(c, statement('check.sql', 'max_warehouse')))[0]?.['w'];
  facts.maxWarehouse = maxW === null || maxW === undefined ? null : Number(maxW);

  await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    for (const w of sample) {
      const wf = await warehouseFacts(c, w, q);
      if (wf) facts.warehouses.push(wf);
    }
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
  return facts;
}

async function warehouseFacts(c: Client, w: number, q: Quoting): Promise<WarehouseFacts | null> {
  const head = (await rows(c, renderVars(statement('check.sql', 'warehouse_facts'), { w }, q)))[0];
  if (!head) return null;
  const districts: DistrictFacts[] = (await rows(c, renderVars(statement('check.sql', 'district_facts'), { w }, q))).map((r) => ({
    d: num(r['d_id']),
    next_o_id: num(r['d_next_o_id']),
    max_o_id: num(r['max_o_id']),
    no_count: num(r['no_count']),
    no_min: num(r['no_min']),
    no_max: num(r['no_max']),
    sum_ol_cnt: num(r['sum_ol_cnt']),
    ol_count: num(r['ol_count']),
  }));
  return { w, w_ytd: num(head['w_ytd']), sum_d_ytd: num(head['sum_d_ytd']), districts };
}
