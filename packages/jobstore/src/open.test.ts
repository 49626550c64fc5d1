import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, TERMINAL_STATUSES, type JobStatus } from '@sledge/protocol';
import { JobStore } from './store.js';
import { JobStoreOpenError } from './db.js';
import { loadMigrations, migrate } from './migrate.js';
import { jobInput, tempDir, tempStore } from './test/helpers.js';

describe('JobStore.open', () => {
  it('creates the parent directories, uses WAL with a 30 s busy timeout and records migrations', () => {
    const { store, path } = tempStore();
    expect(store.path).toBe(path);
    expect(existsSync(path)).toBe(true);
    store.close();
    const db = new Database(path);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const versions = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
      expect(versions).toEqual(loadMigrations().map((m) => ({ version: m.version, name: m.name })));
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
      expect(tables).toEqual(expect.arrayContaining(['job', 'job_output', 'job_timing', 'job_tcount', 'job_metric', 'job_system', 'share_link', 'saved_config']));
    } finally {
      db.close();
    }
  });

  it('sets busy_timeout to 30000 on its connection', () => {
    const { store } = tempStore();
    // busy_timeout and synchronous are per connection: read them on the store's own.
    const { db } = store as unknown as { db: Database.Database };
    expect(db.pragma('busy_timeout', { simple: true })).toBe(30000);
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('reopens an existing store without re-running migrations and keeps the data', () => {
    const { store, path } = tempStore();
    const job = store.createJob(jobInput({ label: 'kept' }));
    store.updateJob(job.id, { status: 'completed' });
    store.close();
    const again = JobStore.open(path);
    try {
      expect(again.getJob(job.id)?.label).toBe('kept');
      expect(again.interruptedOnOpen).toEqual([]);
    } finally {
      again.close();
    }
    const db = new Database(path);
    expect((db.prepare('SELECT count(*) AS n FROM schema_migrations').get() as { n: number }).n).toBe(loadMigrations().length);
    db.close();
  });

  it('marks every job left in an active status as interrupted, and only those', () => {
    const { store, path } = tempStore();
    const ids = new Map<JobStatus, string>();
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    for (const status of JOB_STATUSES) {
      const job = store.createJob(jobInput({ label: status }));
      if (status !== 'queued') store.updateJob(job.id, { status, startedAt });
      ids.set(status, job.id);
    }
    // The measuring job's last sign of life: an output line 30 s after it started.
    const lastLine = Date.parse(startedAt) + 30_000;
    store.appendOutput(ids.get('measuring')!, [{ vu: 1, ts: lastLine, text: 'last words' }]);
    store.close();
    const again = JobStore.open(path);
    try {
      const active = JOB_STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s));
      expect(active).toEqual(['queued', 'connecting', 'running', 'rampup', 'measuring', 'stopping']);
      expect([...again.interruptedOnOpen].sort()).toEqual(active.map((s) => ids.get(s)).sort());
      for (const s of active) {
        const job = again.getJob(ids.get(s) ?? '');
        expect(job?.status).toBe('interrupted');
        expect(job?.error).toEqual({ code: 'SLEDGE_E_INTERRUPTED', message: 'the server stopped while the job was running' });
        // Ended at the last recorded sign of life, not at this open: the last line, else its start (a queued job: its creation).
        const expected = s === 'measuring' ? lastLine : s === 'queued' ? Date.parse(job!.createdAt) : Date.parse(startedAt);
        expect(Date.parse(job?.endedAt ?? '')).toBe(expected);
      }
      for (const s of TERMINAL_STATUSES) {
        const job = again.getJob(ids.get(s) ?? '');
        expect(job?.status).toBe(s);
        expect(job?.error).toBeUndefined();
        expect(job?.endedAt).toBeUndefined();
      }
    } finally {
      again.close();
    }
  });

  it('refuses a file that is not a SQLite database, naming the path and the reason', () => {
    const dir = tempDir();
    const path = join(dir, 'notes.db');
    writeFileSync(path, 'this is a text file, not a database\n'.repeat(50));
    let err: unknown;
    try {
      JobStore.open(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JobStoreOpenError);
    expect((err as Error).message).toContain(path);
    expect((err as Error).message).toMatch(/not a SQLite database/);
    expect((err as Error).name).not.toBe('SledgeError');
  });

  it('refuses a path whose parent cannot be a directory, with the OS reason', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    const path = join(dir, 'file', 'sub', 'sledge.db');
    expect(() => JobStore.open(path)).toThrow(JobStoreOpenError);
    expect(() => JobStore.open(path)).toThrow(/file.*not a directory.*(ENOTDIR|EEXIST)/);
    expect(() => JobStore.open(path)).toThrow(path);
  });

  it('refuses a directory as the database path', () => {
    const dir = tempDir();
    expect(() => JobStore.open(dir)).toThrow(/not a regular file/);
  });

  it.skipIf(process.getuid?.() === 0)('refuses an unwritable directory with the OS reason (EACCES)', () => {
    const dir = tempDir();
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o500);
    try {
      expect(() => JobStore.open(join(ro, 'sledge.db'))).toThrow(/not writable.*EACCES/);
      expect(() => JobStore.open(join(ro, 'deeper', 'sledge.db'))).toThrow(/EACCES/);
    } finally {
      chmodSync(ro, 0o700);
    }
  });

  it('refuses a store written by a newer schema (migrations only go forward)', () => {
    const { store, path } = tempStore();
    store.close();
    const db = new Database(path);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(999, 'future', new Date().toISOString());
    db.close();
    expect(() => JobStore.open(path)).toThrow(/version 999.*upgrade Sledge/);
  });

  it('applies only migrations newer than the file, each recorded once', () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'm.db'));
    const base = loadMigrations();
    const extra = { version: base.length + 1, name: 'test_extra', sql: 'CREATE TABLE test_extra (x INTEGER) STRICT;' };
    expect(migrate(db, base)).toEqual(base.map((m) => m.version));
    expect(migrate(db, [...base, extra])).toEqual([extra.version]);
    expect(migrate(db, [...base, extra])).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'test_extra'").get()).toEqual({ n: 1 });
    db.close();
  });

  it('rejects a migration directory with a gap in its numbering', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '0001_a.sql'), 'SELECT 1;');
    writeFileSync(join(dir, '0003_c.sql'), 'SELECT 1;');
    expect(() => loadMigrations(dir)).toThrow(/without gaps/);
  });

  it('rejects a bad flushMs', () => {
    const dir = tempDir();
    expect(() => JobStore.open(join(dir, 'x.db'), { flushMs: 0 })).toThrow(/flushMs/);
    expect(existsSync(join(dir, 'x.db'))).toBe(false);
  });

  it('close() flushes and is idempotent; a closed store refuses work', () => {
    const { store, path } = tempStore();
    const job = store.createJob(jobInput());
    store.appendOutput(job.id, [{ vu: 1, ts: 1, text: 'last words' }]);
    store.close();
    store.close();
    expect(() => store.appendOutput(job.id, [{ vu: 1, ts: 2, text: 'too late' }])).toThrow(/closed/);
    const again = JobStore.open(path);
    expect(again.getOutput(job.id).lines.map((l) => l.text)).toEqual(['last words']);
    again.close();
  });
});
