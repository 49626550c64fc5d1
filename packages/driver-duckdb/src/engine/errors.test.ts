import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tproccHooks } from '@sledge/core';
import { SledgeError, type DuckdbTarget } from '@sledge/protocol';
import { driver } from '../index.js';
import { connect } from './connection.js';
import { classifyError, DuckdbInterrupted, duckdbCode, SessionClosedError } from './errors.js';

const dir = mkdtempSync(join(tmpdir(), 'sledge-duckdb-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const memory: DuckdbTarget = { engine: 'duckdb', file: ':memory:' };

/** What DuckDB throws for `sql` on an in-memory database. */
async function errorOf(setup: string[], sql: string): Promise<unknown> {
  const h = await connect(memory, 'create');
  try {
    for (const s of setup) await h.conn.run(s);
    await h.conn.run(sql);
  } catch (e) {
    return e;
  } finally {
    h.release();
  }
  throw new Error(`${sql} did not fail`);
}

describe('DuckDB error classes (real errors from an in-memory database)', () => {
  it('a missing table is "other", with DuckDB\'s error type as the code', async () => {
    const e = await errorOf([], 'SELECT * FROM nosuch');
    expect(duckdbCode(e)).toBe('CATALOG');
    expect(classifyError(e)).toMatchObject({ kind: 'other', retryable: false, code: 'CATALOG' });
  });

  it('a duplicate primary key is a constraint error', async () => {
    const e = await errorOf(['CREATE TABLE t (a INTEGER PRIMARY KEY)', 'INSERT INTO t VALUES (1)'], 'INSERT INTO t VALUES (1)');
    expect(classifyError(e)).toMatchObject({ kind: 'constraint', retryable: false, code: 'CONSTRAINT' });
  });

  it('two transactions updating the same row: the second commit is a retryable serialization failure (optimistic concurrency)', async () => {
    const a = await connect(memory, 'create');
    const b = await connect(memory, 'create');
    try {
      await a.conn.run('CREATE TABLE d (id INTEGER PRIMARY KEY, n INTEGER)');
      await a.conn.run('INSERT INTO d VALUES (1, 0)');
      await a.conn.run('BEGIN TRANSACTION');
      await b.conn.run('BEGIN TRANSACTION');
      await a.conn.run('UPDATE d SET n = n + 1 WHERE id = 1');
      const e = await b.conn.run('UPDATE d SET n = n + 1 WHERE id = 1').then(
        () => b.conn.run('COMMIT').then(() => undefined),
        (x: unknown) => x,
      );
      await a.conn.run('COMMIT');
      expect(e).toBeInstanceOf(Error);
      expect(classifyError(e)).toMatchObject({ kind: 'serialization', retryable: true, code: 'TRANSACTIONCONTEXT' });
    } finally {
      a.release();
      b.release();
    }
  });

  it('an interrupt is a timeout; a closed session and SledgeErrors are connection errors', () => {
    expect(classifyError(new Error('INTERRUPT Error: Interrupted!'))).toMatchObject({ kind: 'timeout', code: 'INTERRUPT' });
    expect(classifyError(new DuckdbInterrupted('query cancelled'))).toMatchObject({ kind: 'timeout' });
    expect(classifyError(new SessionClosedError())).toMatchObject({ kind: 'connection', retryable: false });
    expect(classifyError(new SledgeError('SLEDGE_E_SCHEMA_MISSING', 'x'))).toMatchObject({ kind: 'connection', code: 'SLEDGE_E_SCHEMA_MISSING' });
  });
});

describe('DuckDB connections', () => {
  it('a missing file is SLEDGE_E_SCHEMA_MISSING on target.file, and nothing is created', async () => {
    const target: DuckdbTarget = { engine: 'duckdb', file: join(dir, 'missing.duckdb') };
    await expect(connect(target, 'existing')).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_MISSING', field: 'target.file' });
    await expect(driver.openQuerySession!(target, { name: 'x', dop: 1, queryTimeoutSec: 0, log: () => undefined })).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_MISSING' });
  });

  it('a file that is not a DuckDB database is SLEDGE_E_CONNECT on target.file', async () => {
    const file = join(dir, 'text.duckdb');
    writeFileSync(file, 'this is not a database\n'.repeat(400));
    await expect(connect({ engine: 'duckdb', file }, 'existing')).rejects.toMatchObject({ code: 'SLEDGE_E_CONNECT', field: 'target.file' });
  });

  it('a path under a regular file cannot be created: SLEDGE_E_CONNECT', async () => {
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    await expect(connect({ engine: 'duckdb', file: join(file, 'db.duckdb') }, 'create')).rejects.toMatchObject({ code: 'SLEDGE_E_CONNECT', field: 'target.file' });
  });

  it('sessions of one thread share the database; it closes with the last one', async () => {
    const target: DuckdbTarget = { engine: 'duckdb', file: join(dir, 'shared.duckdb') };
    const a = await connect(target, 'create');
    const b = await connect(target, 'existing');
    await a.conn.run('CREATE TABLE s AS SELECT 42 AS v');
    expect((await b.conn.runAndReadAll('SELECT v FROM s')).getRows()).toEqual([[42]]);
    a.release();
    b.release();
    const c = await connect(target, 'existing');
    expect((await c.conn.runAndReadAll('SELECT v FROM s')).getRows()).toEqual([[42]]);
    c.release();
  });
});

describe('DuckDB driver', () => {
  it('probes the library and reports DuckDB\'s version', async () => {
    const p = await driver.probe();
    expect(p.available).toBe(true);
    expect(p.libraryVersion).toMatch(/DuckDB v\d+\.\d+\.\d+/);
    const session = await driver.openSession(memory, () => undefined);
    expect(await session.serverVersion()).toMatch(/^\d+\.\d+\.\d+/);
    await session.close();
  });

  it("runs no TPROC-C transactions: the hooks say why, and a VU session is a typed error with the reason", async () => {
    const hooks = tproccHooks(driver);
    expect(hooks.noTransactions).toContain('optimistic concurrency');
    let e: unknown;
    try {
      await hooks.openVu({ ...memory }, { vu: 2, log: () => undefined });
    } catch (x) {
      e = x;
    }
    expect(e).toMatchObject({ code: 'SLEDGE_E_DRIVER_UNAVAILABLE', field: 'target.engine' });
    expect((e as Error).message).toContain('optimistic concurrency');
  });
});
