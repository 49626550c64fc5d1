import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SledgeError } from '@sledge/protocol';
import { classifyError, SessionClosedError } from './errors.js';
import { driver, resolveFile } from '../index.js';
import { loadLibrary } from './library.js';
import { tempTarget } from '../test-support/build.js';

const log = () => undefined;

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

async function rejected(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('classifyError on real better-sqlite3 errors', () => {
  const { ctor } = loadLibrary();

  it('SQLITE_BUSY after the busy timeout is a retryable lock timeout', () => {
    const file = tempTarget('busy').file;
    const a = new ctor(file);
    const b = new ctor(file, { timeout: 20 });
    try {
      a.pragma('journal_mode = WAL');
      a.exec('CREATE TABLE t (x)');
      a.exec('BEGIN IMMEDIATE');
      const e = thrown(() => b.exec('BEGIN IMMEDIATE'));
      expect(classifyError(e)).toMatchObject({ kind: 'lock-timeout', retryable: true, code: 'SQLITE_BUSY' });
    } finally {
      a.close();
      b.close();
    }
  });

  it('SQLITE_LOCKED is a retryable lock timeout', () => {
    expect(classifyError(new ctor.SqliteError('database table is locked', 'SQLITE_LOCKED_SHAREDCACHE'))).toMatchObject({
      kind: 'lock-timeout',
      retryable: true,
    });
  });

  it('a constraint violation is a constraint error', () => {
    const db = new ctor(':memory:');
    try {
      db.exec('CREATE TABLE t (x INTEGER PRIMARY KEY)');
      db.exec('INSERT INTO t VALUES (1)');
      const e = thrown(() => db.exec('INSERT INTO t VALUES (1)'));
      expect(classifyError(e)).toMatchObject({ kind: 'constraint', retryable: false, code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    } finally {
      db.close();
    }
  });

  it('a closed connection, a closed session and SQLITE_CANTOPEN are connection errors', () => {
    const db = new ctor(':memory:');
    const st = db.prepare('SELECT 1');
    db.close();
    expect(classifyError(thrown(() => st.get()))).toMatchObject({ kind: 'connection', retryable: false });
    expect(classifyError(new SessionClosedError())).toMatchObject({ kind: 'connection', code: 'SQLITE_CLOSED' });
    const missing = join(mkdtempSync(join(tmpdir(), 'sledge-sqlite-')), 'none.sqlite');
    const e = thrown(() => new ctor(missing, { fileMustExist: true }));
    expect(classifyError(e)).toMatchObject({ kind: 'connection', code: 'SQLITE_CANTOPEN' });
  });

  it('anything else is other', () => {
    const db = new ctor(':memory:');
    try {
      expect(classifyError(thrown(() => db.exec('SELEC 1')))).toMatchObject({ kind: 'other', retryable: false, code: 'SQLITE_ERROR' });
    } finally {
      db.close();
    }
    expect(classifyError(new Error('boom'))).toEqual({ kind: 'other', retryable: false, message: 'boom' });
    expect(classifyError(new SledgeError('SLEDGE_E_CONNECT', 'x', { field: 'target.file' }))).toMatchObject({ kind: 'connection' });
  });
});

describe('target.file', () => {
  it('a relative path resolves against the working directory', () => {
    expect(resolveFile({ engine: 'sqlite', file: 'data/t.sqlite', busyTimeoutMs: 1, synchronous: 'normal' })).toBe(resolve(process.cwd(), 'data/t.sqlite'));
    expect(resolveFile({ engine: 'sqlite', file: '/abs/t.sqlite', busyTimeoutMs: 1, synchronous: 'normal' })).toBe('/abs/t.sqlite');
  });

  it('a directory that cannot be created is SLEDGE_E_CONNECT on target.file with the OS reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sledge-sqlite-'));
    writeFileSync(join(dir, 'plain-file'), 'not a directory');
    const target = { ...tempTarget('x'), file: join(dir, 'plain-file', 'sub', 'tprocc.sqlite') };
    const admin = await driver.workloads.tprocc.openAdmin(target, log);
    try {
      expect(await admin.schemaState()).toEqual({ exists: false, warehouses: 0 });
      const e = await rejected(admin.createSchema({ warehouses: 1, buildVus: 1 }));
      expect(SledgeError.is(e)).toBe(true);
      expect(e).toMatchObject({ code: 'SLEDGE_E_CONNECT', field: 'target.file' });
      expect((e as Error).message).toMatch(/ENOTDIR|EEXIST/);
      expect((e as Error).message).toContain(target.file);
    } finally {
      await admin.close();
    }
  });

  it('a path that is a directory is SLEDGE_E_CONNECT on target.file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sledge-sqlite-'));
    const admin = await driver.workloads.tprocc.openAdmin({ ...tempTarget('x'), file: dir }, log);
    try {
      const e = await rejected(admin.createSchema({ warehouses: 1, buildVus: 1 }));
      expect(e).toMatchObject({ code: 'SLEDGE_E_CONNECT', field: 'target.file' });
    } finally {
      await admin.close();
    }
  });

  it('sessions on a missing file are SLEDGE_E_SCHEMA_MISSING, and looking leaves no file behind', async () => {
    const target = tempTarget('missing');
    expect(await rejected(driver.workloads.tprocc.openVu(target, { vu: 2, log }))).toMatchObject({ code: 'SLEDGE_E_SCHEMA_MISSING', field: 'target.file' });
    expect(await rejected(driver.workloads.tprocc.openLoader(target, log))).toMatchObject({ code: 'SLEDGE_E_SCHEMA_MISSING' });
    const admin = await driver.workloads.tprocc.openAdmin(target, log);
    try {
      expect(await admin.schemaState()).toEqual({ exists: false, warehouses: 0 });
      expect((await admin.checkFacts([1])).databaseExists).toBe(false);
      expect(await rejected(admin.readCounters())).toMatchObject({ code: 'SLEDGE_E_SCHEMA_MISSING' });
      await admin.afterRun();
      await admin.dropSchema();
    } finally {
      await admin.close();
    }
    expect(existsSync(target.file)).toBe(false);
  });
});

describe('schema lifecycle files', () => {
  it('dropSchema deletes the file with its -wal and -shm when the schema was all it held', async () => {
    const target = tempTarget('lifecycle');
    const admin = await driver.workloads.tprocc.openAdmin(target, log);
    const vu = await (async () => {
      await admin.createSchema({ warehouses: 1, buildVus: 1 });
      return driver.workloads.tprocc.openVu(target, { vu: 2, log });
    })();
    try {
      expect(await rejected(admin.createSchema({ warehouses: 1, buildVus: 1 }))).toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.file' });
      expect(vu.run('stocklevel', { w_id: 1, d_id: 1, threshold: 15 })).toBe('commit');
      await vu.close();
      await admin.dropSchema();
      expect(readdirSync(join(target.file, '..'))).toEqual([]);
      await admin.dropSchema();
      expect((await admin.schemaState()).exists).toBe(false);
    } finally {
      await vu.close();
      await admin.close();
    }
  });

  it('dropSchema keeps a file that holds other tables, and removes only ours', async () => {
    const target = tempTarget('shared');
    const admin = await driver.workloads.tprocc.openAdmin(target, log);
    try {
      await admin.createSchema({ warehouses: 1, buildVus: 1 });
      const { ctor } = loadLibrary();
      const other = new ctor(target.file);
      other.exec("CREATE TABLE notes (n TEXT); INSERT INTO notes VALUES ('keep me')");
      other.close();
      await admin.dropSchema();
      await admin.dropSchema();
      expect((await admin.schemaState()).exists).toBe(false);
      const db = new ctor(target.file);
      try {
        expect(db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()).toEqual(['notes']);
      } finally {
        db.close();
      }
    } finally {
      await admin.close();
    }
  });

  it('creates the file in WAL mode, and leaves no -wal/-shm behind when dropped', async () => {
    const target = tempTarget('journal');
    const admin = await driver.workloads.tprocc.openAdmin(target, log);
    const { ctor } = loadLibrary();
    const mode = () => {
      const db = new ctor(target.file, { readonly: true });
      try {
        return db.pragma('journal_mode', { simple: true });
      } finally {
        db.close();
      }
    };
    try {
      await admin.createSchema({ warehouses: 1, buildVus: 1 });
      expect(mode()).toBe('wal');
      const loader = await driver.workloads.tprocc.openLoader(target, log);
      await loader.load([{ table: 'warehouse', rows: 1, data: [[1, 'w', 's1', 's2', 'c', 'st', '123411111', '0.10', '300000.00']] }]);
      await loader.close();
      await admin.finishSchema({ warehouses: 1, buildVus: 1 });
      expect(mode()).toBe('wal');
      expect(await admin.schemaState()).toEqual({ exists: true, warehouses: 1 });
      await admin.dropSchema();
      expect(readdirSync(join(target.file, '..'))).toEqual([]);
    } finally {
      await admin.close();
    }
  });

  it('a damaged file is a SLEDGE_E_CONNECT that says so, and dropSchema deletes it', async () => {
    const target = tempTarget('damaged');
    const admin = await driver.workloads.tprocc.openAdmin(target, log);
    try {
      await admin.createSchema({ warehouses: 1, buildVus: 1 });
      await admin.close();
      const fd = openSync(target.file, 'r+');
      writeSync(fd, Buffer.alloc(3000, 0x5a), 0, 3000, 100);
      closeSync(fd);
      const e = await rejected(admin.schemaState());
      expect(e).toMatchObject({ code: 'SLEDGE_E_CONNECT', field: 'target.file' });
      expect((e as Error).message).toMatch(/SQLITE_CORRUPT.*damaged/);
      await admin.dropSchema();
      expect(existsSync(target.file)).toBe(false);
    } finally {
      await admin.close();
    }
  });

  it('dropSchema refuses to delete a file that is not a SQLite database', async () => {
    const target = tempTarget('notadb');
    writeFileSync(target.file, 'A'.repeat(5000));
    const admin = await driver.workloads.tprocc.openAdmin(target, log);
    try {
      const e = await rejected(admin.dropSchema());
      expect(e).toMatchObject({ code: 'SLEDGE_E_CONNECT', field: 'target.file' });
      expect((e as Error).message).toMatch(/not a SQLite database/);
      expect(existsSync(target.file)).toBe(true);
    } finally {
      await admin.close();
    }
  });
});
