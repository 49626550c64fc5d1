import { describe, expect, it } from 'vitest';
import { TPROCC_COLUMNS, TproccGenerator, itemUnits, warehouseUnits, type GeneratedTable, type Value } from '@sledge/core';
import { TPROCC_TABLES, type TproccTable } from '@sledge/protocol';
import { ARRAY_DML_ROWS, arrayRows, bindDefs, generatedColumns, insertSql, oraKind, type OraColumn } from '../engine/rows.js';
import { oracleSql } from './sqlfiles.js';

interface DdlColumn extends OraColumn {
  precision: number;
  scale: number;
}

/** Columns read from tables.sql, as user_tab_columns would list them. */
function ddl(): Record<TproccTable, DdlColumn[]> {
  const tables = oracleSql.file('tables');
  const out = {} as Record<TproccTable, DdlColumn[]>;
  for (const t of TPROCC_TABLES) {
    out[t] = [...tables[t]!.matchAll(/^\s+(\w+)\s+(NUMBER|VARCHAR2|CHAR|DATE)(?:\((\d+)(?:,(\d+))?\))?\s*(NOT NULL)?,?$/gm)].map((m) => ({
      name: m[1]!,
      typeName: m[2]!,
      maxLength: m[2] === 'NUMBER' ? 22 : m[2] === 'DATE' ? 7 : Number(m[3]),
      precision: m[2] === 'NUMBER' ? Number(m[3]) : 0,
      scale: m[2] === 'NUMBER' ? Number(m[4] ?? 0) : 0,
      nullable: !m[5],
    }));
  }
  return out;
}
const DDL = ddl();
const TS = '2025-03-04 05:06:07';
let cache: GeneratedTable[] | undefined;
function generated(): GeneratedTable[] {
  if (cache) return cache;
  const gen = new TproccGenerator({ seed: 11, timestamp: TS }, 'tuples');
  const units = [itemUnits()[0]!, ...warehouseUnits(1).filter((u) => (u.kind !== 'stock' || u.from === 1) && (!('d' in u) || u.d === 1))];
  cache = units.flatMap((u) => gen.generate(u));
  return cache;
}

function fits(v: Value, c: DdlColumn): boolean {
  if (v === null) return c.nullable;
  switch (oraKind(c)) {
    case 'string':
      return typeof v === 'string' && v.length <= c.maxLength;
    case 'date':
      return typeof v === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v);
    case 'number': {
      const n = Number(v);
      const [i, f = ''] = String(v).replace('-', '').split('.');
      return Number.isFinite(n) && f.length <= c.scale && i!.replace(/^0+/, '').length <= c.precision - c.scale;
    }
  }
}

describe('Oracle array DML of the TPROC-C tables', () => {
  it('tables.sql has exactly the generated columns', () => {
    for (const t of TPROCC_TABLES) {
      expect(DDL[t].length, t).toBe(TPROCC_COLUMNS[t].length);
      expect(generatedColumns(t, DDL[t]).map((c) => c.name)).toEqual([...TPROCC_COLUMNS[t]]);
    }
  });

  it('generates values that fit every column of tables.sql', () => {
    for (const g of generated()) {
      const cols = generatedColumns(g.table, DDL[g.table]);
      for (const row of g.data as Value[][]) {
        row.forEach((v, i) => {
          if (!fits(v, cols[i]!)) throw new Error(`${g.table}.${cols[i]!.name} = ${JSON.stringify(v)} does not fit ${cols[i]!.typeName}`);
        });
      }
    }
  });

  it('builds the INSERT with TO_DATE for DATE columns', () => {
    const cols = generatedColumns('orders', DDL.orders);
    expect(insertSql('orders', cols)).toBe(
      "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (:1, :2, :3, :4, TO_DATE(:5, 'YYYY-MM-DD HH24:MI:SS'), :6, :7, :8)",
    );
  });

  it('defines binds from the column types', () => {
    const T = { NUMBER: 'N', STRING: 'S' };
    expect(bindDefs(generatedColumns('item', DDL.item), T)).toEqual([{ type: 'N' }, { type: 'N' }, { type: 'S', maxSize: 24 }, { type: 'N' }, { type: 'S', maxSize: 50 }]);
    expect(bindDefs(generatedColumns('history', DDL.history), T)[5]).toEqual({ type: 'S', maxSize: 19 });
  });

  it('turns decimal strings into numbers for NUMBER columns only', () => {
    const kinds = generatedColumns('customer', DDL.customer).map(oraKind);
    const g = generated().find((x) => x.table === 'customer')!;
    const rows = arrayRows((g.data as Value[][]).slice(0, 3), kinds);
    const cols = TPROCC_COLUMNS.customer;
    for (const r of rows) {
      expect(typeof r[cols.indexOf('c_balance')]).toBe('number');
      expect(r[cols.indexOf('c_balance')]).toBe(-10);
      expect(typeof r[cols.indexOf('c_since')]).toBe('string');
      expect(typeof r[cols.indexOf('c_zip')]).toBe('string');
    }
    expect(() => arrayRows([['x']], ['number'])).toThrow(/not a number/);
    expect(ARRAY_DML_ROWS).toBeGreaterThan(1000);
  });
});
