import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SledgeError, parseTproccOptions, type SavedConfigInput } from '@sledge/protocol';
import { openDatabase } from './db.js';
import { newJobId } from './ids.js';
import { loadMigrations, migrate, schemaVersion } from './migrate.js';
import { SecretBox } from './secrets.js';
import { JobStore } from './store.js';
import { jobInput, tempDir, tempStore } from './test/helpers.js';

const err = (fn: () => unknown): { code: string; field: string | undefined; message: string } => {
  try {
    fn();
  } catch (e) {
    if (SledgeError.is(e)) return { code: e.code, field: e.field, message: e.message };
    throw e;
  }
  throw new Error('expected a SledgeError');
};

const pg = (over: Record<string, unknown> = {}): SavedConfigInput =>
  ({
    name: 'pg local',
    target: { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'tpcc', password: 'S3cret-pw', superuser: 'postgres', superuserPassword: 'Sup3r-pw', database: 'tpcc' },
    tprocc: { warehouses: 4, vus: 2 },
    ...over,
  }) as SavedConfigInput;

describe('saved configurations', () => {
  it('saves with defaults filled, returns secrets redacted, keeps them (encrypted) in the file', () => {
    const { store, path } = tempStore();
    const saved = store.saveConfig(pg());
    expect(saved.id).toBeGreaterThan(0);
    expect(saved.name).toBe('pg local');
    expect(saved.target).toMatchObject({ engine: 'postgresql', host: '127.0.0.1', password: '********', superuserPassword: '********', sslmode: 'prefer' });
    expect(saved.tprocc).toMatchObject({ warehouses: 4, vus: 2 });
    expect(saved.createdAt).toBe(saved.updatedAt);
    const everything = JSON.stringify([saved, store.listConfigs(), store.getConfig(saved.id), store.getConfig(saved.id, { withSecrets: false })]);
    expect(everything).not.toContain('S3cret-pw');
    expect(everything).not.toContain('Sup3r-pw');
    const full = store.getConfig(saved.id, { withSecrets: true });
    expect(full?.target).toMatchObject({ password: 'S3cret-pw', superuserPassword: 'Sup3r-pw' });
    store.close();
    const db = new Database(path, { readonly: true });
    const stored = JSON.parse((db.prepare('SELECT target FROM saved_config').get() as { target: string }).target) as Record<string, string>;
    db.close();
    // Host and user stay readable; the secrets are sealed (secrets.test.ts covers the encryption itself).
    expect(stored).toMatchObject({ host: '127.0.0.1', user: 'tpcc' });
    expect(stored['password']).toMatch(/^sledge-enc:v1:/);
    expect(JSON.stringify(stored)).not.toContain('S3cret-pw');
  });

  it('accepts and reads configurations of the old shape (TPROC-C schema options under target) in the new one', () => {
    const { store, path } = tempStore();
    const oldShape = pg({ target: { ...pg().target, partition: true, storedProcs: true }, tprocc: { warehouses: 4, schema: { tablespace: 'fast' } } });
    const saved = store.saveConfig(oldShape);
    expect(saved.target).not.toHaveProperty('partition');
    expect(saved.tprocc).toMatchObject({ warehouses: 4, schema: { partition: true, storedProcs: true, tablespace: 'fast' } });
    // A row written before the move (schema options in the stored target) reads in the new shape too.
    store.close();
    const db = new Database(path);
    const row = db.prepare('SELECT target FROM saved_config WHERE id = ?').get(saved.id) as { target: string };
    const t = { ...(JSON.parse(row.target) as Record<string, unknown>), partition: true, tablespace: 'old_ts' };
    db.prepare("UPDATE saved_config SET target = ?, options = '{\"vus\":3}' WHERE id = ?").run(JSON.stringify(t), saved.id);
    db.close();
    const reopened = JobStore.open(path);
    try {
      const read = reopened.getConfig(saved.id);
      expect(read?.target).not.toHaveProperty('partition');
      expect(read?.target).toMatchObject({ engine: 'postgresql', password: '********' });
      expect(read?.options).toEqual({ vus: 3, schema: { partition: true, tablespace: 'old_ts' } });
      expect(read?.tprocc).toEqual(read?.options);
      expect(reopened.getConfig(saved.id, { withSecrets: true })?.target).toMatchObject({ password: 'S3cret-pw' });
    } finally {
      reopened.close();
    }
  });

  it('keeps a stored secret when an update sends "********" and replaces it when a value is sent', async () => {
    const { store } = tempStore();
    const saved = store.saveConfig(pg());
    await new Promise((r) => setTimeout(r, 5));
    const redactedTarget = store.getConfig(saved.id)?.target as Record<string, unknown>;
    const updated = store.updateConfig(saved.id, { name: 'pg renamed', target: { ...redactedTarget, database: 'tpcc_two' } as SavedConfigInput['target'], tprocc: { warehouses: 8 } });
    expect(updated.name).toBe('pg renamed');
    expect(updated.target).toMatchObject({ database: 'tpcc_two', password: '********' });
    expect(updated.updatedAt > updated.createdAt).toBe(true);
    expect(store.getConfig(saved.id, { withSecrets: true })?.target).toMatchObject({ database: 'tpcc_two', password: 'S3cret-pw', superuserPassword: 'Sup3r-pw' });
    // A kept secret stays bound to its endpoint and user: moving the port needs the password typed again.
    expect(() => store.updateConfig(saved.id, { name: 'pg renamed', target: { ...redactedTarget, port: 5433 } as SavedConfigInput['target'] })).toThrow(/port changed.*type the secret/);
    expect(store.getConfig(saved.id, { withSecrets: true })?.target).toMatchObject({ port: redactedTarget['port'], password: 'S3cret-pw' });
    store.updateConfig(saved.id, { name: 'pg renamed', target: { ...redactedTarget, password: 'n3w-pw' } as SavedConfigInput['target'] });
    expect(store.getConfig(saved.id, { withSecrets: true })?.target).toMatchObject({ password: 'n3w-pw', superuserPassword: 'Sup3r-pw' });
    expect(JSON.stringify(store.listConfigs())).not.toContain('n3w-pw');
  });

  it('refuses the placeholder where there is no stored secret to keep', () => {
    const { store } = tempStore();
    expect(err(() => store.saveConfig(pg({ target: { engine: 'mysql', host: 'h', password: '********' } })))).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.password' });
    const saved = store.saveConfig(pg({ name: 'sqlite', target: { engine: 'sqlite', file: 'x.sqlite' } }));
    expect(err(() => store.updateConfig(saved.id, pg({ name: 'sqlite', target: { engine: 'mysql', password: '********' } })))).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.password' });
    expect(store.getConfig(saved.id)?.target).toMatchObject({ engine: 'sqlite' });
  });

  it('keeps names unique (SLEDGE_E_CONFLICT on name)', () => {
    const { store } = tempStore();
    const a = store.saveConfig(pg({ name: 'a' }));
    store.saveConfig(pg({ name: 'b' }));
    expect(err(() => store.saveConfig(pg({ name: 'a' })))).toMatchObject({ code: 'SLEDGE_E_CONFLICT', field: 'name' });
    expect(err(() => store.saveConfig(pg({ name: ' a ' })))).toMatchObject({ code: 'SLEDGE_E_CONFLICT', field: 'name' });
    expect(err(() => store.updateConfig(a.id, pg({ name: 'b' })))).toMatchObject({ code: 'SLEDGE_E_CONFLICT', field: 'name' });
    expect(store.updateConfig(a.id, pg({ name: 'a' })).name).toBe('a');
    expect(store.listConfigs().map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('validates input, reports unknown ids and deletes', () => {
    const { store } = tempStore();
    expect(err(() => store.saveConfig(pg({ name: '' })))).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'name' });
    expect(err(() => store.saveConfig(pg({ target: { engine: 'postgresql', port: 70000 } })))).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.port' });
    expect(err(() => store.saveConfig(pg({ target: { engine: 'informix' } })))).toMatchObject({ code: 'SLEDGE_E_UNKNOWN_ENGINE', field: 'target.engine' });
    expect(err(() => store.saveConfig(pg({ tprocc: { warehouses: 0 } })))).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'tprocc.warehouses' });
    expect(err(() => store.saveConfig(pg({ extra: 1 })))).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'extra' });
    expect(store.listConfigs()).toEqual([]);
    expect(err(() => store.updateConfig(99, pg()))).toMatchObject({ code: 'SLEDGE_E_NOT_FOUND', field: 'id' });
    const saved = store.saveConfig(pg());
    expect(store.getConfig(99)).toBeUndefined();
    expect(store.deleteConfig(saved.id)).toBe(true);
    expect(store.deleteConfig(saved.id)).toBe(false);
    expect(store.getConfig(saved.id)).toBeUndefined();
  });
});

describe('saved configurations: (target, workload, options)', () => {
  const cfg = (over: Record<string, unknown>): SavedConfigInput => ({ name: 'cfg', target: { engine: 'sqlite' }, ...over }) as SavedConfigInput;

  it('keeps each workload with its options, defaults filled as its jobs get them: TPROC-H and CH-benCHmark too', () => {
    const { store } = tempStore();
    const h = store.saveConfig(cfg({ name: 'h', workload: 'tproch', options: { scaleFactor: 10, mode: 'throughput', streams: 3 } }));
    expect(h.workload).toBe('tproch');
    expect(h.options).toEqual({ scaleFactor: 10, buildVus: 1, mode: 'throughput', streams: 3, querySets: 1, refresh: false, updateSets: 1, trickleMs: 1000, dop: 2, queryTimeoutSec: 0, raiseQueryError: false, validation: false, explain: true, verbose: false });
    // TPROC-H's own SQLite file, as a TPROC-H job body without one gets it; no `tprocc` in its reply.
    expect(h.target).toMatchObject({ engine: 'sqlite', file: 'tproch.sqlite' });
    expect(h).not.toHaveProperty('tprocc');

    const ch = store.saveConfig(
      cfg({ name: 'ch', workload: 'chbench', target: pg().target, options: { analyticStreams: 2, tprocc: { vus: 4, warehouses: 2, schema: { partition: true } } } }),
    );
    expect(ch.workload).toBe('chbench');
    expect(ch.options).toMatchObject({ analyticStreams: 2, dop: 1, queryTimeoutSec: 0, raiseQueryError: false, tprocc: { vus: 4, warehouses: 2, driver: 'timed', schema: { partition: true } } });
    expect(ch.target).toMatchObject({ engine: 'postgresql', database: 'tpcc', password: '********' });
    expect(store.getConfig(ch.id, { withSecrets: true })?.target).toMatchObject({ password: 'S3cret-pw' });

    const c = store.saveConfig(cfg({ name: 'c', workload: 'tprocc', options: { vus: 3 } }));
    expect(c).toMatchObject({ workload: 'tprocc', options: { vus: 3, warehouses: 1 } });
    expect(c.tprocc).toEqual(c.options);
    expect(store.listConfigs().map((x) => [x.name, x.workload])).toEqual([
      ['c', 'tprocc'],
      ['ch', 'chbench'],
      ['h', 'tproch'],
    ]);
    // An update may change the workload: the reply follows it.
    const moved = store.updateConfig(c.id, cfg({ name: 'c', workload: 'tproch', options: { scaleFactor: 1 } }));
    expect(moved).toMatchObject({ workload: 'tproch', options: { scaleFactor: 1, mode: 'power' } });
    expect(moved).not.toHaveProperty('tprocc');
    expect(store.getConfig(c.id)).toEqual(moved);
  });

  it('takes the older shape { name, target, tprocc } as workload "tprocc" with those options', () => {
    const { store } = tempStore();
    const old = store.saveConfig(pg());
    const now = store.saveConfig(pg({ name: 'new shape', workload: 'tprocc', options: { warehouses: 4, vus: 2 }, tprocc: undefined }));
    expect(old.workload).toBe('tprocc');
    expect(old.options).toEqual(now.options);
    expect(old.tprocc).toEqual(old.options);
    expect({ ...old, id: 0, name: '', createdAt: '', updatedAt: '' }).toEqual({ ...now, id: 0, name: '', createdAt: '', updatedAt: '' });
  });

  it('refuses a bad workload or bad options naming the field, and writes nothing', () => {
    const { store } = tempStore();
    const bad = (over: Record<string, unknown>) => err(() => store.saveConfig(cfg(over)));
    expect(bad({ workload: 'tpcch' })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'workload', message: expect.stringMatching(/tprocc, tproch, chbench/) });
    expect(bad({ workload: 7 })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'workload' });
    expect(bad({ workload: 'tproch', options: { scaleFactor: -1 } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options.scaleFactor' });
    expect(bad({ workload: 'tproch', options: { vus: 4 } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options.vus' });
    expect(bad({ options: { warehouses: 2, buildVus: 3 } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options.buildVus', message: expect.stringMatching(/^options\.buildVus \(3\) must not exceed options\.warehouses/) });
    expect(bad({ workload: 'chbench', options: { tprocc: { driver: 'test' } } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options.tprocc.driver' });
    expect(bad({ workload: 'chbench', options: { dop: 0 } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options.dop' });
    expect(bad({ workload: 'tproch', options: [1] })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'options' });
    expect(bad({ tprocc: { vus: 2 }, options: { vus: 2 } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'tprocc' });
    expect(bad({ workload: 'tproch', tprocc: { vus: 2 } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'tprocc' });
    // A connect pool goes only with a workload whose runs use one.
    const pool = { connections: [{ name: 'a', file: 'a.sqlite' }] };
    expect(bad({ workload: 'tproch', target: { engine: 'sqlite', pool } })).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.pool' });
    // Every field at fault at once.
    const both = err(() => store.saveConfig(cfg({ target: { engine: 'sqlite', walAutocheckpoint: 'x' }, workload: 'tproch', options: { mode: 'x' } })));
    expect(both.message).toMatch(/and 1 more: (options\.mode|target\.\w+)/);
    expect(store.listConfigs()).toEqual([]);

    const saved = store.saveConfig(cfg({ workload: 'tproch', options: { scaleFactor: 1 } }));
    // CH-benCHmark takes tprocc.vus 0 (its analytic streams alone), never a negative count.
    expect(err(() => store.updateConfig(saved.id, cfg({ workload: 'chbench', options: { tprocc: { vus: -1 } } })))).toMatchObject({ field: 'options.tprocc.vus' });
    expect(store.listConfigs()).toEqual([saved]);
  });
});

describe('migration 0005: saved configurations name their workload', () => {
  it('a configuration stored before it reads back the same, as workload "tprocc" with its tprocc options', () => {
    const dir = tempDir();
    const path = join(dir, 'data', 'sledge.db');
    const secretKey = randomBytes(32).toString('base64');
    const box = new SecretBox(Buffer.from(secretKey, 'base64'));
    const db = openDatabase(path);
    migrate(db, loadMigrations().slice(0, 4));
    expect(schemaVersion(db)).toBe(4);
    // Rows as Sledge wrote them at schema version 4: the target's secrets sealed, TPROC-C options with defaults filled.
    const tprocc = parseTproccOptions({ warehouses: 4, vus: 2 }, 'tprocc', 'postgresql');
    const target = { engine: 'postgresql', host: 'db.example', port: 5432, user: 'tpcc', password: box.seal('S3cret-pw', 'target.password'), superuser: 'postgres', superuserPassword: box.seal('Sup3r-pw', 'target.superuserPassword'), database: 'tpcc', sslmode: 'prefer' };
    const insert = db.prepare('INSERT INTO saved_config (name, target, tprocc, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    const a = Number(insert.run('pg local', JSON.stringify(target), JSON.stringify(tprocc), '2026-01-02T03:04:05.000Z', '2026-01-03T03:04:05.000Z').lastInsertRowid);
    // One of the shape before TPROC-C schema options left the target.
    const b = Number(insert.run('older', JSON.stringify({ engine: 'postgresql', host: 'h', partition: true, tablespace: 'old_ts' }), '{"vus":3}', 'c', 'u').lastInsertRowid);
    const gone = Number(insert.run('deleted', JSON.stringify({ engine: 'sqlite' }), '{}', 'c', 'u').lastInsertRowid);
    db.prepare('DELETE FROM saved_config WHERE id = ?').run(gone);
    db.close();

    // What Sledge answered for them at version 4.
    const shownTarget = { ...target, password: '********', superuserPassword: '********' };
    const before = [
      { id: b, name: 'older', target: { engine: 'postgresql', host: 'h' }, tprocc: { vus: 3, schema: { partition: true, tablespace: 'old_ts' } }, createdAt: 'c', updatedAt: 'u' },
      { id: a, name: 'pg local', target: shownTarget, tprocc, createdAt: '2026-01-02T03:04:05.000Z', updatedAt: '2026-01-03T03:04:05.000Z' },
    ];

    const store = JobStore.open(path, { secretKey });
    try {
      const now = [...before].sort((x, y) => x.name.localeCompare(y.name)).map((c) => ({ ...c, workload: 'tprocc', options: c.tprocc }));
      expect(store.listConfigs()).toEqual(now);
      expect(store.getConfig(a)).toEqual(now.find((c) => c.id === a));
      expect(store.getConfig(b)).toEqual(now.find((c) => c.id === b));
      expect(store.getConfig(a, { withSecrets: true })?.target).toEqual({ ...target, password: 'S3cret-pw', superuserPassword: 'Sup3r-pw' });
      // A kept secret still updates in place, and the deleted configuration's id is not handed out again.
      expect(store.updateConfig(a, { name: 'pg local', target: shownTarget as SavedConfigInput['target'], workload: 'tprocc', options: tprocc }).options).toEqual(tprocc);
      expect(store.getConfig(a, { withSecrets: true })?.target).toMatchObject({ password: 'S3cret-pw' });
      expect(store.saveConfig(cfgOf('next')).id).toBe(gone + 1);
    } finally {
      store.close();
    }
    const after = openDatabase(path);
    try {
      expect(schemaVersion(after)).toBe(loadMigrations().length);
      const cols = Object.fromEntries((after.prepare('PRAGMA table_info(saved_config)').all() as { name: string; notnull: number }[]).map((c) => [c.name, c.notnull]));
      expect(cols).toEqual({ id: 0, name: 1, target: 1, workload: 1, options: 1, created_at: 1, updated_at: 1 });
      expect(after.prepare('SELECT workload, options FROM saved_config WHERE id = ?').get(b)).toEqual({ workload: 'tprocc', options: '{"vus":3}' });
    } finally {
      after.close();
    }
  });
});

const cfgOf = (name: string): SavedConfigInput => ({ name, target: { engine: 'sqlite' } }) as SavedConfigInput;

describe('share links', () => {
  it('creates url-safe tokens that resolve to the job until revoked', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    const { token } = store.createShare(a);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const second = store.createShare(a).token;
    expect(second).not.toBe(token);
    expect(store.resolveShare(token)).toBe(a);
    expect(store.revokeShare(token)).toBe(true);
    expect(store.revokeShare(token)).toBe(false);
    expect(store.resolveShare(token)).toBeUndefined();
    expect(store.resolveShare(second)).toBe(a);
    expect(store.resolveShare('not-a-token')).toBeUndefined();
    expect(err(() => store.createShare(newJobId()))).toMatchObject({ code: 'SLEDGE_E_NOT_FOUND' });
    store.deleteJob(a);
    expect(store.resolveShare(second)).toBeUndefined();
  });
});
