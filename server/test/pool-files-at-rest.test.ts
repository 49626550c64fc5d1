import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../dist/app.js';
import { readConnectPool } from '../dist/pools/cpool-files.js';
import { makeApp, type SledgeApp } from './helpers.js';

/**
 * The HammerDB command API's connect pool files (<data dir>/connectpool/<prefix>cpool.xml)
 * hold passwords: stored owner-only with each password sealed by the job
 * store's key (as saved configurations' secrets are), readable back for a
 * run; a plain file put there by hand is read and rewritten sealed; a link
 * planted at the name is never written through.
 */

const PW = ['Pool-Plain-Secret-1', 'Pool-Plain-Secret-2'];
const pgXml = `<?xml version="1.0"?>
<connpool>
  <connections>
    <c1><pg_host>db1</pg_host><pg_port>5432</pg_port><pg_user>tpcc1</pg_user><pg_pass>${PW[0]}</pg_pass><pg_dbase>tpcc1</pg_dbase></c1>
    <c2><pg_host>db2</pg_host><pg_user>tpcc2</pg_user><pg_pass>${PW[1]}&amp;x</pg_pass><pg_superuserpass></pg_superuserpass></c2>
  </connections>
  <sprocs><neworder><connections>c1 c2</connections><policy>round_robin</policy></neworder></sprocs>
</connpool>
`;
const mode = (f: string) => (statSync(f).mode & 0o777).toString(8);

describe('connect pool files at rest', () => {
  let s: SledgeApp & { dataDir: string };
  let dir: string;
  let closed = false;
  beforeAll(async () => {
    s = await makeApp();
    dir = join(s.dataDir, 'connectpool');
  });
  afterAll(async () => {
    if (!closed) await s.app.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  });

  it('PUT stores the file owner-only with its passwords sealed; GET and a run read them back', async () => {
    const put = await s.app.inject({ method: 'PUT', url: '/api/v1/pools/hammerdb/pg', payload: { xml: pgXml } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.body).not.toMatch(/Pool-Plain-Secret/);
    const file = join(dir, 'pgcpool.xml');
    const disk = readFileSync(file, 'utf8');
    expect(disk).not.toContain(PW[0]);
    expect(disk).not.toContain(PW[1]);
    expect(disk.match(/<pg_pass>sledge-enc:v1:[A-Za-z0-9+/=]+<\/pg_pass>/g)).toHaveLength(2);
    // Everything but the password values is the file as sent.
    expect(disk.replace(/sledge-enc:v1:[A-Za-z0-9+/=]+/g, 'X')).toBe(pgXml.replace(PW[0], 'X').replace(`${PW[1]}&amp;x`, 'X'));
    expect([mode(file), mode(dir)]).toEqual(['600', '700']);

    const got = await s.app.inject({ method: 'GET', url: '/api/v1/pools/hammerdb/pg' });
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toMatch(/Pool-Plain-Secret|sledge-enc/);
    expect(JSON.parse(got.body)).toMatchObject({ engine: 'postgresql', secrets: ['pool.connections.0.password', 'pool.connections.1.password'], pool: { connections: [{ name: 'c1', password: '********' }, { name: 'c2', password: '********' }] } });
    // What a HammerDB-API run (pg_connect_pool true) gets: the passwords themselves.
    const pool = await readConnectPool(s.dataDir, 'pg', 'postgresql', s.store);
    expect(pool?.pool.connections.map((c) => c.password)).toEqual([PW[0], `${PW[1]}&x`]);
  });

  it('a plain file (from before, or copied by hand) is read and rewritten sealed', async () => {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mariacpool.xml');
    const plain = pgXml.replace(/pg_/g, 'maria_');
    writeFileSync(file, plain, { mode: 0o644 });
    const got = await s.app.inject({ method: 'GET', url: '/api/v1/pools/hammerdb/maria' });
    expect(got.statusCode, got.body).toBe(200);
    expect(JSON.parse(got.body)).toMatchObject({ engine: 'mariadb', pool: { connections: [{ name: 'c1', host: 'db1', password: '********' }, { name: 'c2' }] } });
    const disk = readFileSync(file, 'utf8');
    expect(disk).not.toMatch(/Pool-Plain-Secret/);
    expect(disk.replace(/sledge-enc:v1:[A-Za-z0-9+/=]+/g, 'X')).toBe(plain.replace(PW[0], 'X').replace(`${PW[1]}&amp;x`, 'X'));
    expect(mode(file)).toBe('600');
    expect((await readConnectPool(s.dataDir, 'maria', 'mariadb', s.store))?.pool.connections.map((c) => c.password)).toEqual([PW[0], `${PW[1]}&x`]);
  });

  it('a link planted at a pool file name is not written through (409, the link and its target unchanged)', async () => {
    const victim = join(s.dataDir, 'victim.xml');
    writeFileSync(victim, 'victim content\n');
    const link = join(dir, 'mysqlcpool.xml');
    symlinkSync(victim, link);
    const put = await s.app.inject({ method: 'PUT', url: '/api/v1/pools/hammerdb/mysql', payload: { xml: pgXml.replace(/pg_/g, 'mysql_') } });
    expect(put.statusCode).toBe(409);
    expect(JSON.parse(put.body).error).toMatchObject({ code: 'SLEDGE_E_CONFLICT', field: 'prefix', message: expect.stringMatching(/mysqlcpool\.xml is a symbolic link: Sledge does not write through it or replace it/) });
    expect([readFileSync(victim, 'utf8'), lstatSync(link).isSymbolicLink(), readlinkSync(link)]).toEqual(['victim content\n', true, victim]);
  });

  it('another key cannot open the sealed passwords: a typed 422, never the sealed text', async () => {
    await s.app.close();
    closed = true;
    const other = await buildApp({ dataDir: s.dataDir, logger: false, uiDir: null, secretKey: randomBytes(32).toString('base64') });
    try {
      const got = await other.app.inject({ method: 'GET', url: '/api/v1/pools/hammerdb/pg' });
      expect(got.statusCode).toBe(422);
      expect(JSON.parse(got.body).error).toMatchObject({ code: 'SLEDGE_E_SECRET_UNREADABLE', field: 'pool.connections.0.password' });
      expect(got.body).not.toMatch(/sledge-enc|Pool-Plain-Secret/);
    } finally {
      await other.app.close();
    }
  });
});
