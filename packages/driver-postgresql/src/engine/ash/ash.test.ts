import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { AshSample } from '@sledge/protocol';
import type { PostgresqlTarget } from '@sledge/protocol';
import { driver } from '../../index.js';
import { PgAshSampler } from './sampler.js';

/**
 * Live ASH tests against the local PostgreSQL (trust auth, superuser
 * postgres). Database and role: sledge_ash_pg (a plain role: no superuser, no
 * pg_read_all_stats).
 */
const host = process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1';
const port = Number(process.env['SLEDGE_PG_PORT'] ?? 5432);
const superPassword = process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres';
const NAME = 'sledge_ash_pg';

const target: PostgresqlTarget = {
  engine: 'postgresql',
  host,
  port,
  user: NAME,
  password: 'pw',
  database: NAME,
  superuser: 'postgres',
  superuserPassword: superPassword,
  defaultDatabase: 'postgres',
  sslmode: 'disable',
  vacuum: false, prepared: true, noStoredProcs: false,
};
/** The plain role is also given as "superuser": no login of this target reads other users' sessions. */
const partialTarget: PostgresqlTarget = { ...target, superuser: NAME, superuserPassword: 'pw', defaultDatabase: NAME };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function client(user: string, password: string, database: string, app: string): Promise<pg.Client> {
  const c = new pg.Client({ host, port, user, password, database, application_name: app, connectionTimeoutMillis: 5000 });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}
const asUser = (app: string) => client(NAME, 'pw', NAME, app);
const pidOf = async (c: pg.Client) => (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

/** Sample until `done` holds for a sample set (the server needs a moment to show new waits). */
async function sampleUntil(s: PgAshSampler, done: (xs: AshSample[]) => boolean, tries = 40): Promise<AshSample[]> {
  let last: AshSample[] = [];
  for (let i = 0; i < tries; i++) {
    last = await s.sample();
    if (done(last)) return last;
    await sleep(250);
  }
  return last;
}

let admin: pg.Client;

beforeAll(async () => {
  admin = await client('postgres', superPassword, 'postgres', 'sledge-ash-test');
  const role = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [NAME]);
  if (role.rowCount === 0) await admin.query(`CREATE ROLE ${NAME} LOGIN PASSWORD 'pw'`);
  await admin.query(`ALTER ROLE ${NAME} NOSUPERUSER`);
  await admin.query(`REVOKE pg_read_all_stats FROM ${NAME}`);
  const db = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [NAME]);
  if (db.rowCount === 0) await admin.query(`CREATE DATABASE ${NAME} OWNER ${NAME}`);
  const u = await asUser('sledge-ash-setup');
  await u.query('DROP TABLE IF EXISTS ash_lock, ash_copy');
  await u.query('CREATE TABLE ash_lock (id integer PRIMARY KEY, v integer NOT NULL)');
  await u.query('INSERT INTO ash_lock VALUES (1, 0)');
  await u.query('CREATE TABLE ash_copy (a integer, b text)');
  await u.end();
});

afterAll(async () => {
  await admin?.end();
});

describe('PostgreSQL ASH sampler (live)', () => {
  it('is the driver capability, and uses the superuser when the TPC user cannot read other sessions', async () => {
    const logs: string[] = [];
    const s = (await driver.openAshSampler!(target, (l) => logs.push(l))) as PgAshSampler;
    try {
      expect(s.source).toBe('pg_stat_activity');
      expect(s.login).toBe('superuser');
      expect(s.seesAll).toBe(true);
      expect(logs.join('\n')).toMatch(/sampling pg_stat_activity as "postgres"/);
      // The sampler never reports its own session.
      const own = s.backendPid;
      expect(own).toBeGreaterThan(0);
      const seen = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND application_name = 'sledge-ash'", [own]);
      expect(seen.rows[0]!.n).toBe(1);
      const samples = await s.sample();
      expect(samples.map((x) => x.session)).not.toContain(String(own));
    } finally {
      await s.close();
    }
  });

  it('sees CPU, Timeout, Lock (with the blocker) and idle-in-transaction Client sessions of four VUs', async () => {
    const s = await PgAshSampler.open(target, () => undefined);
    const [sleeper, burner, holder, waiter] = await Promise.all([asUser('sledge-vu-2'), asUser('sledge-vu-3'), asUser('sledge-vu-4'), asUser('sledge-vu-5')]);
    const pids = await Promise.all([sleeper, burner, holder, waiter].map(pidOf));
    const running: Promise<unknown>[] = [];
    try {
      await burner.query("SET statement_timeout = '60s'");
      running.push(sleeper.query('SELECT pg_sleep(60)').catch(() => undefined));
      running.push(burner.query('SELECT count(*) FROM generate_series(1, 20000) a, generate_series(1, 1000000) b').catch(() => undefined));
      await holder.query('BEGIN');
      await holder.query('SELECT v FROM ash_lock WHERE id = 1 FOR UPDATE');
      running.push(waiter.query('UPDATE ash_lock SET v = v + 1 WHERE id = 1').catch(() => undefined));

      // Other tests may run sledge-vu-N sessions on this server at the same time: pick ours by pid.
      const of = (xs: AshSample[], i: number) => xs.find((x) => x.session === String(pids[i]));
      const samples = await sampleUntil(s, (xs) => of(xs, 0)?.event === 'PgSleep' && of(xs, 1)?.waitClass === 'CPU' && of(xs, 3)?.waitClass === 'Lock' && of(xs, 2) !== undefined);

      expect(of(samples, 0)).toMatchObject({ vu: 2, waitClass: 'Timeout', event: 'PgSleep', engineClass: 'Timeout', user: NAME, program: 'sledge-vu-2' });
      expect(of(samples, 0)!.sql).toBe('SELECT pg_sleep(60)');
      expect(of(samples, 0)!.sqlId).toMatch(/^(-?\d+|[0-9a-f]{16})$/);
      expect(of(samples, 1)).toMatchObject({ vu: 3, waitClass: 'CPU', event: 'CPU' });
      expect(of(samples, 1)!.engineClass).toBeUndefined();
      expect(of(samples, 2)).toMatchObject({ vu: 4, waitClass: 'Client', event: 'ClientRead' });
      expect(of(samples, 3)).toMatchObject({ vu: 5, waitClass: 'Lock', event: 'transactionid', blocking: String(pids[2]) });
      for (let i = 0; i < 4; i++) expect(of(samples, i)!.background).toBeUndefined();
    } finally {
      await admin.query('SELECT pg_cancel_backend(pid) FROM unnest($1::int[]) AS pid', [[pids[0], pids[1]]]);
      await holder.query('ROLLBACK').catch(() => undefined);
      await Promise.all(running);
      await Promise.all([sleeper, burner, holder, waiter].map((c) => c.end()));
      await s.close();
    }
  });

  it('shows a COPY FROM STDIN fed slowly as Client/ClientRead', async () => {
    const s = await PgAshSampler.open(target, () => undefined);
    const loader = await asUser('sledge-loader');
    const pid = await pidOf(loader);
    const stream = loader.query(copyFrom('COPY ash_copy (a, b) FROM STDIN'));
    const done = new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
    });
    try {
      stream.write('1\tfirst\n');
      const samples = await sampleUntil(s, (xs) => xs.some((x) => x.session === String(pid) && x.event === 'ClientRead'));
      const copy = samples.find((x) => x.session === String(pid));
      expect(copy).toMatchObject({ waitClass: 'Client', event: 'ClientRead', engineClass: 'Client', program: 'sledge-loader' });
      expect(copy!.sql).toBe('COPY ash_copy (a, b) FROM STDIN');
      expect(copy!.vu).toBeUndefined();
      stream.write('2\tsecond\n');
      stream.end();
      await done;
      expect((await loader.query('SELECT count(*)::int AS n FROM ash_copy')).rows[0].n).toBeGreaterThanOrEqual(2);
    } finally {
      await loader.end();
      await s.close();
    }
  });

  it('without pg_read_all_stats anywhere: samples its own sessions, leaves hidden ones out and says what to grant (scope server)', async () => {
    const logs: string[] = [];
    // Scope 'server' reads other databases' sessions: the superuser's in "postgres" is one this login may not read.
    const s = await PgAshSampler.open(partialTarget, (l) => logs.push(l), { scope: 'server' });
    const mine = await asUser('sledge-vu-9');
    const other = await client('postgres', superPassword, 'postgres', 'sledge-ash-other');
    const otherPid = await pidOf(other);
    const minePid = String(await pidOf(mine));
    const running = [mine.query('SELECT pg_sleep(30)').catch(() => undefined), other.query('SELECT pg_sleep(30)').catch(() => undefined)];
    try {
      expect(s.login).toBe('user');
      expect(s.seesAll).toBe(false);
      const samples = await sampleUntil(s, (xs) => xs.some((x) => x.session === minePid && x.event === 'PgSleep'));
      expect(samples.find((x) => x.session === minePid)).toMatchObject({ vu: 9, waitClass: 'Timeout', event: 'PgSleep' });
      expect(samples.map((x) => x.session)).not.toContain(String(otherPid));
      await s.sample();
      expect(s.notice).toBe(`<insufficient privilege: GRANT pg_read_all_stats TO ${NAME}>`);
      expect(logs.filter((l) => l.includes(`GRANT pg_read_all_stats TO ${NAME}`))).toHaveLength(1);
      expect(logs.join('\n')).toMatch(/own sessions only/);
      // By default (scope 'database') the other database's session is not read at all: nothing hidden, no notice.
      const scoped = await PgAshSampler.open(partialTarget, () => undefined);
      try {
        expect((await scoped.sample()).map((x) => x.session)).toContain(minePid);
        expect(scoped.notice).toBeUndefined();
      } finally {
        await scoped.close();
      }
    } finally {
      await admin.query('SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name IN ($1, $2)', ['sledge-vu-9', 'sledge-ash-other']);
      await Promise.all(running);
      await Promise.all([mine.end(), other.end()]);
      await s.close();
    }
  });

  it('logs in again after its session is killed (server restart, pg_terminate_backend)', async () => {
    const s = await PgAshSampler.open(target, () => undefined);
    try {
      await s.sample();
      const before = s.backendPid!;
      await admin.query('SELECT pg_terminate_backend($1)', [before]);
      let ok = false;
      for (let i = 0; i < 5 && !ok; i++) {
        await sleep(200);
        ok = await s.sample().then(
          () => true,
          () => false,
        );
      }
      expect(ok).toBe(true);
      const after = s.backendPid!;
      expect(after).not.toBe(before);
      const alive = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [after]);
      expect(alive.rows[0]!.n).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('a target that cannot log in at all is a SledgeError naming the field', async () => {
    await expect(PgAshSampler.open({ ...target, port: 1 }, () => undefined)).rejects.toMatchObject({ code: 'SLEDGE_E_CONNECT' });
  });
});
