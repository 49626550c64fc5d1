import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { psql } from './faults/harness.js';
import { get, makeApp, post, runJob, type SledgeApp } from './helpers.js';
import { quiet, quietTimeout } from '../../scripts/test-quiet.mjs';

/**
 * A build that fails drops what it created and nothing else: on PostgreSQL
 * the role it created (one that existed before stays) and the database it
 * created; on MariaDB the database it created (MariaDB builds create no
 * user: they run as target.user). Each build is forced to fail by the
 * database itself, after the role or database exists. TPROC-C and TPROC-H
 * builds alike.
 */
const PG_NEW = 'sledge_bf_pg_new';
const PG_OLD = 'sledge_bf_pg_old';
const MY_DB = 'sledge_bf_my';
const MY_USER = 'sledge_bf_my_user';
const PGH_NEW = 'sledge_bfh_pg_new';
const PGH_OLD = 'sledge_bfh_pg_old';
const MYH_DB = 'sledge_bfh_my';
const TPROCH = { scaleFactor: 0.01, buildVus: 1 };
const HOLDER = 'sledge_bf_template1_holder';
const pgTarget = (name: string) => ({ engine: 'postgresql', host: '127.0.0.1', port: 5432, user: name, password: 'bf-pw', database: name, superuser: 'postgres', superuserPassword: 'postgres', sslmode: 'disable' });
const roleExists = (r: string) => psql(`SELECT count(*) FROM pg_roles WHERE rolname = '${r}'`) === '1';
const dbExists = (d: string) => psql(`SELECT count(*) FROM pg_database WHERE datname = '${d}'`) === '1';

function maria(q: string): string {
  const r = spawnSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-B', '-e', q], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mariadb: ${r.stderr}`);
  return r.stdout.trim();
}

async function outputOf(s: SledgeApp, job: Job): Promise<string[]> {
  return (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=5000`)).lines.map((l) => l.text);
}

function dropPgAll(): void {
  for (const n of [PG_NEW, PG_OLD, PGH_NEW, PGH_OLD]) {
    psql(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
    psql(`DROP ROLE IF EXISTS ${n}`);
  }
}

describe('a failed build drops what it created', () => {
  let s: SledgeApp;

  beforeAll(async () => {
    dropPgAll();
    maria(`DROP DATABASE IF EXISTS ${MY_DB}; DROP DATABASE IF EXISTS ${MYH_DB}; DROP USER IF EXISTS '${MY_USER}'@'%'`);
    s = await makeApp();
  });

  afterAll(async () => {
    await s?.app.close();
    dropPgAll();
    maria(`DROP DATABASE IF EXISTS ${MY_DB}; DROP DATABASE IF EXISTS ${MYH_DB}; DROP USER IF EXISTS '${MY_USER}'@'%'`);
  });

  it('PostgreSQL: the role it created is dropped when the build fails after creating it (a missing tablespace)', async () => {
    expect(roleExists(PG_NEW)).toBe(false);
    const job = await runJob(s, { type: 'build', target: pgTarget(PG_NEW), tprocc: { warehouses: 1, schema: { tablespace: 'sledge_no_such_tablespace' } } });
    expect(job.status).toBe('failed');
    expect(job.error?.field).toBe('tprocc.schema.tablespace');
    expect(roleExists(PG_NEW)).toBe(false);
    expect(dbExists(PG_NEW)).toBe(false);
    const out = await outputOf(s, job);
    expect(out).toContain(`Creating user ${PG_NEW}`);
    expect(out).toContain(`Build failed: dropped what it created (role ${PG_NEW})`);
  });

  it('PostgreSQL: a role that existed before stays; the database the build created is dropped (tables refused: read-only role)', async () => {
    psql(`CREATE ROLE ${PG_OLD} LOGIN PASSWORD 'bf-pw'`);
    psql(`ALTER ROLE ${PG_OLD} SET default_transaction_read_only = on`);
    const job = await runJob(s, { type: 'build', target: pgTarget(PG_OLD), tprocc: { warehouses: 1 } });
    expect(job.status).toBe('failed');
    expect(job.error?.message).toMatch(/read-only transaction/);
    expect(dbExists(PG_OLD)).toBe(false);
    expect(roleExists(PG_OLD)).toBe(true);
    const out = await outputOf(s, job);
    expect(out).not.toContain(`Creating user ${PG_OLD}`);
    expect(out).toContain(`CREATING DATABASE ${PG_OLD} under OWNER ${PG_OLD}`);
    expect(out).toContain(`Build failed: dropped what it created (database ${PG_OLD})`);
  });

  it('MariaDB: the database the build created is dropped when the load fails (a user that may create but not insert); the user stays', async () => {
    maria(`CREATE USER '${MY_USER}'@'%' IDENTIFIED BY 'bf-pw'; GRANT CREATE, DROP, ALTER, INDEX, SELECT ON ${MY_DB}.* TO '${MY_USER}'@'%'`);
    const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: MY_USER, password: 'bf-pw', database: MY_DB };
    const job = await runJob(s, { type: 'build', target, tprocc: { warehouses: 1 } });
    expect(job.status).toBe('failed');
    expect(maria(`SELECT count(*) FROM information_schema.schemata WHERE schema_name = '${MY_DB}'`)).toBe('0');
    expect(maria(`SELECT count(*) FROM mysql.user WHERE user = '${MY_USER}'`)).toBe('1');
    const out = await outputOf(s, job);
    expect(out).toContain(`created database ${MY_DB}`);
    expect(out).toContain(`Build failed: dropped what it created (database ${MY_DB})`);
  });

  it('TPROC-H PostgreSQL: the role it created is dropped when creating the database then fails (template1 in use)', () =>
    quiet(async () => {
      expect(roleExists(PGH_NEW)).toBe(false);
      // CREATE DATABASE copies template1 and refuses while another session is connected to it.
      const holder: ChildProcess = spawn('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'template1', '-Atc', 'SELECT pg_sleep(60)'], {
        stdio: 'ignore',
        env: { ...process.env, PGAPPNAME: HOLDER },
      });
      try {
        for (let i = 0; i < 100 && psql(`SELECT count(*) FROM pg_stat_activity WHERE datname = 'template1'`) === '0'; i++) await new Promise((r) => setTimeout(r, 50));
        expect(psql(`SELECT count(*) FROM pg_stat_activity WHERE datname = 'template1'`)).not.toBe('0');
        const job = await runJob(s, { type: 'build', workload: 'tproch', target: pgTarget(PGH_NEW), tproch: TPROCH });
        expect(job.status).toBe('failed');
        expect(job.error?.message).toMatch(/template1/);
        expect(roleExists(PGH_NEW)).toBe(false);
        expect(dbExists(PGH_NEW)).toBe(false);
        const out = await outputOf(s, job);
        expect(out).toContain(`Creating user ${PGH_NEW}`);
        expect(out).toContain(`Build failed: dropped what it created (role ${PGH_NEW})`);
      } finally {
        holder.kill();
        // The backend sleeps on after its client is gone: end it, so later databases can be created.
        psql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '${HOLDER}'`);
      }
    }, 'db'), quietTimeout(300_000));

  it('TPROC-H PostgreSQL: a role that existed before stays; the database the build created is dropped (tables refused: read-only role)', async () => {
    psql(`CREATE ROLE ${PGH_OLD} LOGIN PASSWORD 'bf-pw'`);
    psql(`ALTER ROLE ${PGH_OLD} SET default_transaction_read_only = on`);
    const job = await runJob(s, { type: 'build', workload: 'tproch', target: pgTarget(PGH_OLD), tproch: TPROCH });
    expect(job.status).toBe('failed');
    expect(job.error?.message).toMatch(/read-only transaction/);
    expect(dbExists(PGH_OLD)).toBe(false);
    expect(roleExists(PGH_OLD)).toBe(true);
    const out = await outputOf(s, job);
    expect(out).not.toContain(`Creating user ${PGH_OLD}`);
    expect(out).toContain(`Creating database ${PGH_OLD}`);
    expect(out).toContain(`Build failed: dropped what it created (database ${PGH_OLD})`);
  });

  it('TPROC-H MariaDB: the database the build created is dropped when the load fails (a user that may create but not insert); the user stays', async () => {
    maria(`GRANT CREATE, DROP, ALTER, INDEX, SELECT ON ${MYH_DB}.* TO '${MY_USER}'@'%'`);
    const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: MY_USER, password: 'bf-pw', database: MYH_DB };
    const job = await runJob(s, { type: 'build', workload: 'tproch', target, tproch: TPROCH });
    expect(job.status).toBe('failed');
    expect(maria(`SELECT count(*) FROM information_schema.schemata WHERE schema_name = '${MYH_DB}'`)).toBe('0');
    expect(maria(`SELECT count(*) FROM mysql.user WHERE user = '${MY_USER}'`)).toBe('1');
    const out = await outputOf(s, job);
    expect(out).toContain(`Creating database ${MYH_DB}`);
    expect(out).toContain(`Build failed: dropped what it created (database ${MYH_DB})`);
  });

  it('TPROC-H MariaDB: a database that existed before is refused before the build, and stays', async () => {
    maria(`CREATE DATABASE ${MYH_DB}; CREATE TABLE ${MYH_DB}.keep (a int)`);
    const r = await post(s, '/api/v1/jobs', { type: 'build', workload: 'tproch', target: { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: MYH_DB }, tproch: TPROCH });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.database' } });
    expect(maria(`SELECT count(*) FROM information_schema.tables WHERE table_schema = '${MYH_DB}' AND table_name = 'keep'`)).toBe('1');
    maria(`DROP DATABASE ${MYH_DB}`);
  });
});
