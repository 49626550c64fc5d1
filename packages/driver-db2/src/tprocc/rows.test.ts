import { describe, expect, it } from 'vitest';
import { TPROCC_COLUMNS, TproccGenerator, itemUnits, warehouseUnits, type GeneratedTable, type Value } from '@sledge/core';
import { TPROCC_TABLES, type TproccTable } from '@sledge/protocol';
import { generatedColumns, insertStatements, type Db2Column } from '../engine/rows.js';
import { db2Sql } from './sqlfiles.js';

interface DdlColumn extends Db2Column {
  length: number;
  precision: number;
  scale: number;
  nullable: boolean;
}

function ddl(): Record<TproccTable, DdlColumn[]> {
  const tables = db2Sql.file('tables');
  const out = {} as Record<TproccTable, DdlColumn[]>;
  for (const t of TPROCC_TABLES) {
    out[t] = [...tables[t]!.matchAll(/^\s+(\w+)\s+(INTEGER|SMALLINT|BIGINT|DECIMAL|VARCHAR|CHAR|TIMESTAMP)(?:\((\d+)(?:,(\d+))?\))?\s*(NOT NULL)?,?$/gm)].map((m) => ({
      name: m[1]!,
      typeName: m[2]!,
      length: Number(m[3] ?? 0),
      precision: m[2] === 'DECIMAL' ? Number(m[3]) : 0,
      scale: Number(m[4] ?? 0),
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

const RANGE: Record<string, number> = { SMALLINT: 2 ** 15, INTEGER: 2 ** 31, BIGINT: 2 ** 53 };
function fits(v: Value, c: DdlColumn): boolean {
  if (v === null) return c.nullable;
  if (c.typeName === 'VARCHAR') return typeof v === 'string' && v.length <= c.length;
  if (c.typeName === 'CHAR') return typeof v === 'string' && v.length <= c.length;
  if (c.typeName === 'TIMESTAMP') return typeof v === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v);
  if (c.typeName === 'DECIMAL') {
    const [i, f = ''] = String(v).replace('-', '').split('.');
    return f.length <= c.scale && i!.replace(/^0+/, '').length <= c.precision - c.scale;
  }
  return Number.isInteger(v) && Math.abs(v as number) < RANGE[c.typeName]!;
}

describe('Db2 multi-row INSERT load of the TPROC-C tables', () => {
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

  it('batches 500 rows per INSERT', () => {
    const g = generated().find((x) => x.table === 'order_line')!;
    const stmts = insertStatements('order_line', generatedColumns('order_line', DDL.order_line), g.data as Value[][]);
    expect(stmts).toHaveLength(Math.ceil(g.rows / 500));
    expect(stmts[0]!.startsWith('INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,')).toBe(true);
    expect(stmts[0]!.split('\n')).toHaveLength(501);
    expect(stmts.join('\n')).toContain("TIMESTAMP('2025-03-04 05:06:07')");
    expect(stmts.join('\n')).toMatch(/, NULL, 5, /);
    expect(Math.max(...stmts.map((s) => s.length))).toBeLessThan(2_000_000);
  });
});
