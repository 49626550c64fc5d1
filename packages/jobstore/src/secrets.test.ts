import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SledgeError, type SavedConfigInput } from '@sledge/protocol';
import { JobStore } from './store.js';
import { JobStoreOpenError } from './db.js';
import { tempDir } from './test/helpers.js';

const PW = 'Distinctive-Pw-7741';
const SU = 'Distinctive-Su-9932';
const pg = (name = 'pg'): SavedConfigInput =>
  ({ name, target: { engine: 'postgresql', host: 'db.example', port: 5432, user: 'tpcc_user', password: PW, superuser: 'postgres', superuserPassword: SU, database: 'tpcc' } }) as SavedConfigInput;

/** Every byte of the store's SQLite files (database, WAL, shared memory). */
const storeBytes = (path: string): string =>
  [path, `${path}-wal`, `${path}-shm`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('');

const caught = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
};

describe('saved secrets at rest', () => {
  it('are encrypted with a key kept outside the store: the store files alone reveal nothing', () => {
    const dir = tempDir();
    const path = join(dir, 'sledge.db');
    const store = JobStore.open(path);
    const saved = store.saveConfig(pg());
    // Still usable by the server, live (WAL not yet checkpointed) and after a reopen.
    expect(storeBytes(path)).not.toContain(PW);
    expect(storeBytes(path)).not.toContain(SU);
    expect(storeBytes(path)).toContain('tpcc_user'); // not a secret: stays readable
    store.close();
    expect(storeBytes(path)).not.toContain(PW);
    const key = join(dir, 'secret.key');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(store.keySource).toEqual({ kind: 'file', path: key, created: true });
    const again = JobStore.open(path);
    expect(again.getConfig(saved.id, { withSecrets: true })?.target).toMatchObject({ password: PW, superuserPassword: SU });
    again.close();
  });

  it('uses SLEDGE_SECRET_KEY when given (no key file), and refuses a malformed one at open', () => {
    const dir = tempDir();
    const path = join(dir, 'sledge.db');
    const secretKey = randomBytes(32).toString('base64');
    const store = JobStore.open(path, { secretKey });
    const id = store.saveConfig(pg()).id;
    store.close();
    expect(existsSync(join(dir, 'secret.key'))).toBe(false);
    const again = JobStore.open(path, { secretKey });
    expect(again.getConfig(id, { withSecrets: true })?.target).toMatchObject({ password: PW });
    again.close();
    const e = caught(() => JobStore.open(path, { secretKey: 'c2hvcnQ=' }));
    expect(e).toBeInstanceOf(JobStoreOpenError);
    expect((e as Error).message).toMatch(/SLEDGE_SECRET_KEY must hold 32 random bytes in base64/);
    expect((e as Error).message).not.toContain('c2hvcnQ=');
  });

  it('migrates plain-text secrets of an older store on open, leaving no copy in the files', () => {
    const dir = tempDir();
    const path = join(dir, 'sledge.db');
    JobStore.open(path).close();
    // What a store written before encryption holds: the secrets in clear.
    const raw = new Database(path);
    const target = { engine: 'postgresql', host: 'db.example', port: 5432, user: 'tpcc_user', password: PW, superuser: 'postgres', superuserPassword: SU, database: 'tpcc' };
    raw.prepare("INSERT INTO saved_config (name, target, workload, options, created_at, updated_at) VALUES ('old', ?, 'tprocc', '{}', 'x', 'x')").run(JSON.stringify(target));
    raw.close();
    expect(storeBytes(path)).toContain(PW);

    const store = JobStore.open(path);
    expect(store.sealedOnOpen).toBe(1);
    expect(storeBytes(path)).not.toContain(PW);
    expect(storeBytes(path)).not.toContain(SU);
    const [cfg] = store.listConfigs();
    expect(store.getConfig(cfg!.id, { withSecrets: true })?.target).toMatchObject({ password: PW, superuserPassword: SU });
    store.close();
    const again = JobStore.open(path);
    expect(again.sealedOnOpen).toBe(0);
    again.close();
  });

  it('a lost key makes saved secrets unreadable with a typed error asking for the password, never a crash', () => {
    const dir = tempDir();
    const path = join(dir, 'sledge.db');
    const store = JobStore.open(path);
    const id = store.saveConfig(pg()).id;
    store.close();
    writeFileSync(join(dir, 'secret.key'), `${randomBytes(32).toString('base64')}\n`); // the old key is gone

    const again = JobStore.open(path);
    try {
      expect(again.listConfigs()[0]?.target).toMatchObject({ password: '********', host: 'db.example' });
      expect(again.getConfig(id)?.name).toBe('pg');
      const e = caught(() => again.getConfig(id, { withSecrets: true }));
      expect(SledgeError.is(e)).toBe(true);
      expect((e as SledgeError).code).toBe('SLEDGE_E_SECRET_UNREADABLE');
      expect((e as SledgeError).httpStatus).toBe(422);
      expect((e as SledgeError).field).toBe('target.password');
      expect((e as Error).message).toMatch(/Type the secret again/);
      // Keeping the stored value needs it readable; sending the password again repairs the configuration.
      const keep = caught(() => again.updateConfig(id, { ...pg(), target: { ...pg().target, password: '********', superuserPassword: '********' } } as SavedConfigInput));
      expect((keep as SledgeError).code).toBe('SLEDGE_E_SECRET_UNREADABLE');
      again.updateConfig(id, pg());
      expect(again.getConfig(id, { withSecrets: true })?.target).toMatchObject({ password: PW });
    } finally {
      again.close();
    }
  });
});
