import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { chbenchContract, chbenchSqlOf, type ChbenchRow } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import type { DuckdbTarget } from '@sledge/protocol';
import { driver } from '../index.js';
import { connect } from '../engine/connection.js';
import { jsValue } from '../engine/values.js';

// CH-benCHmark's tables (packages/sql/duckdb/chbench/) and 22 queries (PostgreSQL's file, an alias) on a one-warehouse TPROC-C schema the driver builds in a temp dir.
const dir = mkdtempSync(join(tmpdir(), 'sledge-duckdb-chbench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const target: DuckdbTarget = { engine: 'duckdb', file: join(dir, 'chbench.duckdb') };

chbenchContract({
  name: 'duckdb',
  driver,
  target,
  sql: chbenchSqlOf(sqlSet('duckdb', 'chbench')),
  // A connection on the thread's instance of the file (engine/connection.ts), beside the driver's admin session.
  connect: async () => {
    const h = await connect(target, 'existing');
    return {
      exec: async (sql) => void (await h.conn.run(sql)),
      query: async (sql) => {
        const reader = await h.conn.runAndReadAll(sql);
        const names = reader.columnNames();
        return reader.getRows().map((r) => Object.fromEntries(r.map((v, i) => [names[i]!, jsValue(v)])) as ChbenchRow);
      },
      close: async () => h.release(),
    };
  },
});
