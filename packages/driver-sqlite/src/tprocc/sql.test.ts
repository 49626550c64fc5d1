import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TPROCC_COLUMNS, parseNamedSql } from '@sledge/core';
import { TPROCC_TABLES } from '@sledge/protocol';
import { sqlFiles, sqlText } from '@sledge/sql';
import { loadLibrary } from '../engine/library.js';
import { NAMED_SQL_FILES, namedSql, sqlScript } from './sql.js';

const here = dirname(fileURLToPath(import.meta.url));

/** A schema from the project's own scripts, in memory. */
function memorySchema() {
  const { ctor } = loadLibrary();
  const db = new ctor(':memory:');
  db.exec(sqlScript('tables.sql'));
  db.exec(sqlScript('indexes.sql'));
  return db;
}

describe('packages/sql/sqlite/tprocc', () => {
  it("is SQLite's own folder of the SQL package, borrowing from no other engine", () => {
    const files = sqlFiles('sqlite', 'tprocc');
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(f.from).toBe('sqlite');
      expect(f.path).toMatch(/packages[/\\]sql[/\\]sqlite[/\\]tprocc[/\\][a-z_]+\.sql$/);
    }
  });

  it('every named-statement file defines exactly the statements the driver uses', () => {
    const onDisk = sqlFiles('sqlite', 'tprocc').map((f) => f.name).filter((f) => f.endsWith('.sql') && !['tables.sql', 'indexes.sql', 'drop.sql'].includes(f));
    // The common file set (packages/sql/README.md); SQLite has no extras.
    expect([...onDisk, 'tables.sql', 'indexes.sql', 'drop.sql'].sort()).toEqual(
      ['admin.sql', 'check.sql', 'counters.sql', 'drop.sql', 'indexes.sql', 'procedures.sql', 'tables.sql'],
    );
    expect(onDisk.sort()).toEqual(Object.keys(NAMED_SQL_FILES).sort());
    for (const [file, names] of Object.entries(NAMED_SQL_FILES)) {
      const parsed = parseNamedSql(sqlText('sqlite', 'tprocc', file));
      expect(Object.keys(parsed).sort(), file).toEqual([...names].sort());
    }
  });

  it('procedures.sql names each statement after its transaction, and the tx modules use every one', () => {
    const prefixes = ['neword_', 'payment_', 'ostat_', 'delivery_', 'slev_'];
    const names = NAMED_SQL_FILES['procedures.sql'];
    for (const n of names) expect(prefixes.some((p) => n.startsWith(p)), n).toBe(true);
    for (const p of prefixes) expect(names.some((n) => n.startsWith(p)), p).toBe(true);
    const used = ['neworder', 'payment', 'orderstatus', 'delivery', 'stocklevel']
      .map((tx) => readFileSync(join(here, 'tx', `${tx}.ts`), 'utf8'))
      .flatMap((src) => [...src.matchAll(/(?<![\w/.])sql\.([a-z_]+)/g)].map((m) => m[1]!));
    expect([...new Set(used)].sort()).toEqual([...names].sort());
  });

  it('every named statement prepares against the schema (tables, columns, syntax)', () => {
    const db = memorySchema();
    try {
      let n = 0;
      for (const file of Object.keys(NAMED_SQL_FILES) as (keyof typeof NAMED_SQL_FILES)[]) {
        for (const [name, text] of Object.entries(namedSql(file))) {
          expect(() => db.prepare(text), `${file}: ${name}`).not.toThrow();
          n++;
        }
      }
      expect(n).toBe(Object.values(NAMED_SQL_FILES).reduce((s, l) => s + l.length, 0));
    } finally {
      db.close();
    }
  });

  it('tables.sql creates the nine tables with the generator columns, and every table but history is keyed', () => {
    const db = memorySchema();
    try {
      for (const t of TPROCC_TABLES) {
        const cols = db.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck().all(t);
        expect(cols.sort(), t).toEqual([...TPROCC_COLUMNS[t]].sort());
        const indexes = db.prepare<[string], number>('SELECT count(*) FROM pragma_index_list(?)').pluck().get(t) ?? 0;
        if (t === 'history') expect(indexes).toBe(0);
        else expect(indexes, t).toBeGreaterThan(0);
      }
      const secondary = db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all();
      expect(secondary).toEqual(['customer_i2', 'orders_i2']);
      const i2 = db.prepare<[], string>("SELECT name FROM pragma_index_info('customer_i2') ORDER BY seqno").pluck().all();
      expect(i2.slice(0, 4)).toEqual(['c_w_id', 'c_d_id', 'c_last', 'c_first']);
    } finally {
      db.close();
    }
  });

  it('drop.sql removes every table and index and runs twice', () => {
    const db = memorySchema();
    try {
      db.exec(sqlScript('drop.sql'));
      db.exec(sqlScript('drop.sql'));
      expect(db.prepare<[], number>('SELECT count(*) FROM sqlite_schema').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('money updates keep whole cents: payment_customer and neword_order_line round to 2 decimals', () => {
    const db = memorySchema();
    try {
      db.exec(
        "INSERT INTO customer VALUES (1,1,1,'F','OE','L','s1','s2','c','st','z','p','2026-01-01 00:00:00','BC',50000,0.1,-10,10,1,0,'data')",
      );
      const pay = db.prepare(namedSql('procedures.sql').payment_customer);
      for (let i = 0; i < 1000; i++) pay.get({ amount: 0.1, w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 1 });
      const c = db.prepare<[], { c_balance: number; c_ytd_payment: number; c_data: string; c_payment_cnt: number }>('SELECT * FROM customer').get()!;
      // Plain double arithmetic would give -109.99999999999857 here.
      expect(c.c_balance).toBe(-110);
      expect(c.c_ytd_payment).toBe(110);
      expect(c.c_payment_cnt).toBe(1001);
      expect(c.c_data.length).toBe(500);
      expect(c.c_data.startsWith('1 1 1 1 1 0.10 | 1 1 1 1 1 0.10 | ')).toBe(true);
      const line = db.prepare(namedSql('procedures.sql').neword_order_line);
      line.run({ w_id: 1, d_id: 1, o_id: 1, number: 1, i_id: 7, supply_w_id: 1, quantity: 3, price: 33.33, w_tax: 0.11, d_tax: 0.17, discount: 0.07, dist_info: 'x'.repeat(24) });
      // 3 * 33.33 * 1.28 * 0.93 = 119.0280...
      expect(db.prepare<[], number>('SELECT ol_amount FROM order_line').pluck().get()).toBe(119.03);
    } finally {
      db.close();
    }
  });
});
