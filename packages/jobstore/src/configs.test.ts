import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SledgeError, type SavedConfigInput } from '@sledge/protocol';
import { newJobId } from './ids.js';
import { JobStore } from './store.js';
import { jobInput, tempStore } from './test/helpers.js';

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
    db.prepare("UPDATE saved_config SET target = ?, tprocc = '{\"vus\":3}' WHERE id = ?").run(JSON.stringify(t), saved.id);
    db.close();
    const reopened = JobStore.open(path);
    try {
      const read = reopened.getConfig(saved.id);
      expect(read?.target).not.toHaveProperty('partition');
      expect(read?.target).toMatchObject({ engine: 'postgresql', password: '********' });
      expect(read?.tprocc).toEqual({ vus: 3, schema: { partition: true, tablespace: 'old_ts' } });
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
