import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobList } from '@sledge/protocol';
import { get, makeApp, post, type SledgeApp } from './helpers.js';
import { sqliteDatabase } from './fs-helpers.js';

const Database = sqliteDatabase();
type Err = { error: { code: string; field?: string; message: string } };

/** A build into a database that is not empty is refused at preflight (AdminSession.assertBuildable), not in the job. */
describe('build preflight on an existing database', () => {
  let s: SledgeApp & { dataDir: string };
  const jobCount = async () => (await get<JobList>(s, '/api/v1/jobs')).total;
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  });

  it('SQLite: a file holding some TPROC-C tables (a build that died early) -> 422 SLEDGE_E_SCHEMA_EXISTS on target.file, no job', async () => {
    const file = join(s.dataDir, 'partial.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE district (d_id INTEGER, d_w_id INTEGER); CREATE TABLE item (i_id INTEGER)');
    db.close();
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', { type: 'build', target: { engine: 'sqlite', file: 'partial.sqlite' }, tprocc: { warehouses: 1 } });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect((r.body as Err).error).toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.file' });
    expect((r.body as Err).error.message).toMatch(/already holds TPROC-C tables \((district, item|item, district)\)/);
    expect(await jobCount()).toBe(before);
  });

  it("SQLite: a TPROC-H build into a file holding TPROC-C's schema says TPROC-C tables and what to do (422, no job)", async () => {
    const file = join(s.dataDir, 'holds-c.sqlite');
    const db = new Database(file);
    for (const t of ['warehouse', 'district', 'item', 'stock', 'customer', 'history', 'orders', 'new_order', 'order_line']) db.exec(`CREATE TABLE ${t} (id INTEGER)`);
    db.close();
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', { type: 'build', workload: 'tproch', target: { engine: 'sqlite', file: 'holds-c.sqlite' }, tproch: { scaleFactor: 0.01 } });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    const { error } = r.body as Err;
    expect(error).toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.file' });
    expect(error.message).toContain('already holds TPROC-C tables (item, warehouse, stock, district, customer, history, orders, new_order, order_line), not TPROC-H');
    expect(error.message).toContain('choose another target.file for TPROC-H (its default is tproch.sqlite) or delete the TPROC-C schema first');
    expect(error.message).not.toContain('TPROC-H tables');
    expect(await jobCount()).toBe(before);
  });

  it('SQLite: a TPROC-C build into a file holding TPROC-H tables names them TPROC-H tables (422, no job)', async () => {
    const file = join(s.dataDir, 'holds-h.sqlite');
    const db = new Database(file);
    for (const t of ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem']) db.exec(`CREATE TABLE ${t} (id INTEGER)`);
    db.close();
    const r = await post(s, '/api/v1/jobs', { type: 'build', target: { engine: 'sqlite', file: 'holds-h.sqlite' }, tprocc: { warehouses: 1 } });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect((r.body as Err).error.message).toContain('already holds TPROC-H tables (region, nation, supplier, customer, part, partsupp, orders, lineitem), not TPROC-C');
    expect((r.body as Err).error.message).toContain('delete the TPROC-H schema first');
  });

  describe('PostgreSQL', () => {
    const psql = (sql: string) => execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8', env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } });
    const DB = 'sledge_sb_preflight';
    beforeAll(() => {
      psql(`DROP DATABASE IF EXISTS ${DB}`);
      psql(`CREATE DATABASE ${DB} TEMPLATE template0`); // template0 takes no connections: no clash with other CREATE DATABASEs
    });
    afterAll(() => {
      psql(`DROP DATABASE IF EXISTS ${DB}`);
      psql('DROP ROLE IF EXISTS sledge_sb_preflight_user');
    });

    it('a database that already exists (no TPROC-C tables) -> 422 SLEDGE_E_SCHEMA_EXISTS on target.database, no job, nothing created', async () => {
      const before = await jobCount();
      const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, superuser: 'postgres', superuserPassword: 'postgres', user: 'sledge_sb_preflight_user', password: 'sb-pw-1', database: DB };
      const r = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 1 } });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect((r.body as Err).error).toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.database' });
      expect((r.body as Err).error.message).toContain(`database "${DB}" already exists`);
      expect(await jobCount()).toBe(before);
      expect(psql("SELECT count(*) FROM pg_roles WHERE rolname = 'sledge_sb_preflight_user'").trim()).toBe('0');
    });
  });

  describe('MariaDB', () => {
    const sql = (q: string) => execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-e', q], { encoding: 'utf8' });
    const DB = 'sledge_pf_maria';
    beforeAll(() => {
      sql(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; CREATE TABLE ${DB}.item (i_id INT)`);
    });
    afterAll(() => {
      sql(`DROP DATABASE IF EXISTS ${DB}`);
    });

    it('a database holding some TPROC-C tables (a build that died early) -> 422 SLEDGE_E_SCHEMA_EXISTS on target.database, no job, nothing changed', async () => {
      const before = await jobCount();
      const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: DB };
      const r = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 1 } });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect((r.body as Err).error).toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.database' });
      expect((r.body as Err).error.message).toContain('already holds TPROC-C tables (item)');
      expect(await jobCount()).toBe(before);
      expect(sql(`SELECT count(*) FROM information_schema.tables WHERE table_schema = '${DB}'`).trim()).toBe('1');
    });
  });
});
