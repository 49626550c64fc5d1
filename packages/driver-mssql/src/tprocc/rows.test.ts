import { describe, expect, it } from 'vitest';
import { TPROCC_COLUMNS, TproccGenerator, itemUnits, warehouseUnits, type GeneratedTable, type Value } from '@sledge/core';
import { TPROCC_TABLES, type TproccTable } from '@sledge/protocol';
import { bulkRows, columnKind, generatedColumns, insertStatements, wallClock, type ColumnInfo } from '../engine/rows.js';
import { mssqlSql } from './sqlfiles.js';

/** Column definitions read from tables.sql, as sys.columns would report them. */
function ddlColumns(): Record<TproccTable, ColumnInfo[]> {
  const tables = mssqlSql.file('tables');
  const out = {} as Record<TproccTable, ColumnInfo[]>;
  for (const t of TPROCC_TABLES) {
    out[t] = [...tables[t]!.matchAll(/^\s+(\w+)\s+(int|smallint|bigint|numeric|varchar|char|datetime)(?:\((\d+)(?:,(\d+))?\))?\s+(NOT NULL|NULL)/gm)].map((m) => ({
      name: m[1]!,
      typeName: m[2]!,
      maxLength: m[2] === 'varchar' || m[2] === 'char' ? Number(m[3]) : 4,
      precision: m[2] === 'numeric' ? Number(m[3]) : 10,
      scale: m[2] === 'numeric' ? Number(m[4]) : 0,
      nullable: m[5] === 'NULL',
    }));
  }
  return out;
}

const DDL = ddlColumns();
const TS = '2025-03-04 05:06:07';

let cache: GeneratedTable[] | undefined;
/** One unit of every kind: 10000 items and stock rows, a warehouse, its districts, one district's customers and orders. */
function generated(): GeneratedTable[] {
  if (cache) return cache;
  const gen = new TproccGenerator({ seed: 11, timestamp: TS }, 'tuples');
  const units = [itemUnits()[0]!, ...warehouseUnits(1).filter((u) => (u.kind !== 'stock' || u.from === 1) && (!('d' in u) || u.d === 1))];
  cache = units.flatMap((u) => gen.generate(u));
  return cache;
}

/** Does a generated value fit its SQL Server column? */
function fits(v: Value, c: ColumnInfo): boolean {
  if (v === null) return c.nullable;
  const kind = columnKind(c);
  if (kind === 'char' || kind === 'varchar') return typeof v === 'string' && v.length <= c.maxLength && (kind === 'varchar' || v.length === c.maxLength || c.name === 'c_middle');
  if (kind === 'decimal') {
    const [i, f = ''] = String(v).replace('-', '').split('.');
    return f.length <= c.scale && i!.replace(/^0+/, '').length <= c.precision - c.scale;
  }
  if (kind === 'int') return Number.isInteger(v) && Math.abs(v as number) < 2 ** 31;
  if (kind === 'smallint') return Number.isInteger(v) && Math.abs(v as number) < 2 ** 15;
  if (kind === 'datetime') return typeof v === 'string' && !Number.isNaN(wallClock(v).getTime());
  return true;
}

describe('SQL Server row handling of the TPROC-C tables', () => {
  it('orders DDL columns as the generator emits them', () => {
    for (const t of TPROCC_TABLES) {
      expect(DDL[t].length, t).toBe(TPROCC_COLUMNS[t].length);
      expect(generatedColumns(t, DDL[t]).map((c) => c.name)).toEqual([...TPROCC_COLUMNS[t]]);
    }
    expect(generatedColumns('stock', DDL.stock).map((c) => c.name).slice(0, 3)).toEqual(['s_i_id', 's_w_id', 's_quantity']);
    expect(() => generatedColumns('item', DDL.item.slice(1))).toThrow(/no column i_id/);
  });

  it('generates values that fit every column of tables.sql', () => {
    for (const g of generated()) {
      const cols = generatedColumns(g.table, DDL[g.table]);
      for (const row of g.data as Value[][]) {
        row.forEach((v, i) => {
          if (!fits(v, cols[i]!)) throw new Error(`${g.table}.${cols[i]!.name} = ${JSON.stringify(v)} does not fit ${cols[i]!.typeName}(${cols[i]!.maxLength})`);
        });
      }
    }
  });

  it('converts only timestamp columns for bulk copy', () => {
    const cols = generatedColumns('orders', DDL.orders);
    const kinds = cols.map(columnKind);
    const rows: Value[][] = [[1, 2, 3, 4, TS, null, 5, 1]];
    const out = bulkRows(rows, kinds);
    expect(out[0]![4]).toBeInstanceOf(Date);
    expect((out[0]![4] as Date).toISOString()).toBe('2025-03-04T05:06:07.000Z');
    expect(out[0]!.filter((_, i) => i !== 4)).toEqual([1, 2, 3, 4, null, 5, 1]);
    const item = generatedColumns('item', DDL.item).map(columnKind);
    const itemRows: Value[][] = [[1, 2, 'n', '1.00', 'd']];
    expect(bulkRows(itemRows, item)).toBe(itemRows);
  });

  it('splits multi-row INSERTs at 1000 rows', () => {
    const g = generated().find((x) => x.table === 'customer')!;
    const cols = generatedColumns('customer', DDL.customer);
    const stmts = insertStatements('customer', cols, g.data as Value[][]);
    expect(stmts).toHaveLength(3);
    expect(stmts[0]!.startsWith('INSERT INTO dbo.customer (c_id, c_d_id, c_w_id, c_first,')).toBe(true);
    expect(stmts[0]!.split('\n')).toHaveLength(1001);
    expect(stmts[2]!).toContain("'2025-03-04T05:06:07'");
    expect(insertStatements('customer', cols, (g.data as Value[][]).slice(0, 5), 2)).toHaveLength(3);
  });
});
