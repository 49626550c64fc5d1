import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { ParamSession } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { driver } from '../index.js';

// PostgreSQL's pipeline mode on the parameter session (pgbench's \startpipeline), in a database of its own.
// The proof that a pipeline is one Sync is behaviour, not timing: the statements up to a Sync are one implicit
// transaction (one txid_current() for all of them, all undone by an error), where statements each with a Sync of
// their own are one transaction each; a Sync inside the pipeline (sync(), pgbench 17's \syncpipeline) splits it.
const DB = 'sledge_param_pipeline';
const target = {
  engine: 'postgresql',
  host: process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1',
  port: Number(process.env['SLEDGE_PG_PORT'] ?? 5432),
  user: 'postgres',
  password: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres',
  database: DB,
  superuser: 'postgres',
  superuserPassword: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres',
  defaultDatabase: 'postgres',
  sslmode: 'prefer',
  prepared: true,
} as PostgresqlTarget;

async function admin(database: string, fn: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const c = new pg.Client({ host: target.host, port: target.port, user: target.superuser, password: target.superuserPassword, database });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}

const INSERT = 'INSERT INTO pipe (k, tx) VALUES ($1, txid_current())';

describe('PostgreSQL pipeline (ParamSession.pipeline)', () => {
  let s: ParamSession;

  beforeAll(async () => {
    await admin('postgres', async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${DB}`);
    });
    await admin(DB, (c) => c.query('CREATE TABLE pipe (k int, tx bigint)'));
    s = await driver.openParamSession!(target, { name: 'pipeline-test', log: () => undefined });
  });

  afterAll(async () => {
    await s?.close();
    await admin('postgres', (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
  });

  const rows = async (): Promise<{ k: number; tx: string }[]> => (await s.run('SELECT k, tx::text AS tx FROM pipe ORDER BY k', [])) as { k: number; tx: string }[];

  it('is declared by the driver and offered by its sessions', () => {
    expect(driver.paramPipelines).toBe(true);
    expect(typeof s.pipeline).toBe('function');
  });

  it('sends the statements up to one Sync: one implicit transaction, where one-by-one statements are one each', async () => {
    await s.run('DELETE FROM pipe', []);
    const p = s.pipeline!();
    for (const k of [1, 2, 3]) p.send(INSERT, [k]);
    await p.end();
    for (const k of [4, 5, 6]) await s.run(INSERT, [k]);
    const r = await rows();
    expect(r.map((x) => x.k)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(r.slice(0, 3).map((x) => x.tx)).size).toBe(1);
    expect(new Set(r.slice(3).map((x) => x.tx)).size).toBe(3);
  });

  it('an error aborts the pipeline: earlier statements undone, later ones skipped, end() throws it; the session goes on', async () => {
    await s.run('DELETE FROM pipe', []);
    const p = s.pipeline!();
    p.send(INSERT, [1]);
    p.send('SELECT 1 / $1::int', [0]);
    p.send(INSERT, [3]);
    const err = await p.end().then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: '22012' });
    expect(driver.classifyError(err)).toEqual(driver.classifyError(await s.run('SELECT 1 / $1::int', [0]).catch((e: unknown) => e)));
    expect(await rows()).toEqual([]);
    expect(await s.run('SELECT 2 AS n', [])).toEqual([{ n: 2 }]);
  });

  it('a BEGIN ... COMMIT in the pipeline is the caller\'s transaction', async () => {
    await s.run('DELETE FROM pipe', []);
    const p = s.pipeline!();
    p.control('begin');
    p.send(INSERT, [1]);
    p.send(INSERT, [2]);
    p.control('commit');
    p.send(INSERT, [3]);
    await p.end();
    const r = await rows();
    expect(r.map((x) => x.k)).toEqual([1, 2, 3]);
    expect(r[0]!.tx).toBe(r[1]!.tx);
    expect(r[2]!.tx).not.toBe(r[0]!.tx);
  });

  // pgbench 17's \syncpipeline: a Sync in the pipeline, which goes on. Each Sync ends an implicit transaction; an error
  // aborts its own part only, up to the next Sync; the statements after that Sync run and commit.
  it('sync(): the statements before and after a Sync are two implicit transactions, sent in one go', async () => {
    await s.run('DELETE FROM pipe', []);
    const p = s.pipeline!();
    p.send(INSERT, [1]);
    p.send(INSERT, [2]);
    p.sync();
    p.send(INSERT, [3]);
    p.send(INSERT, [4]);
    p.sync();
    p.send(INSERT, [5]);
    await p.end();
    const r = await rows();
    expect(r.map((x) => x.k)).toEqual([1, 2, 3, 4, 5]);
    expect(r[0]!.tx).toBe(r[1]!.tx);
    expect(r[2]!.tx).toBe(r[3]!.tx);
    expect(new Set([r[0]!.tx, r[2]!.tx, r[4]!.tx]).size).toBe(3);
  });

  it('an error after a Sync leaves the rows before it committed, skips the rest of its part, and end() throws it', async () => {
    await s.run('DELETE FROM pipe', []);
    const p = s.pipeline!();
    p.send(INSERT, [1]);
    p.send(INSERT, [2]);
    p.sync();
    p.send('SELECT 1 / $1::int', [0]);
    p.send(INSERT, [3]);
    const err = await p.end().then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: '22012' });
    const r = await rows();
    expect(r.map((x) => x.k)).toEqual([1, 2]);
    expect(r[0]!.tx).toBe(r[1]!.tx);
    expect(await s.run('SELECT 2 AS n', [])).toEqual([{ n: 2 }]);
  });

  it('an error before a Sync undoes only its own part: the part after the Sync runs and commits; the first error is thrown once', async () => {
    await s.run('DELETE FROM pipe', []);
    const p = s.pipeline!();
    p.send(INSERT, [1]);
    p.send('SELECT 1 / $1::int', [0]);
    p.send(INSERT, [2]);
    p.sync();
    p.send(INSERT, [3]);
    p.send(INSERT, [4]);
    p.sync();
    p.send('SELECT $1::int', ['not a number']);
    p.sync();
    p.send(INSERT, [5]);
    const err = await p.end().then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: '22012' });
    const r = await rows();
    expect(r.map((x) => x.k)).toEqual([3, 4, 5]);
    expect(r[0]!.tx).toBe(r[1]!.tx);
    expect(r[2]!.tx).not.toBe(r[0]!.tx);
    expect(await s.run('SELECT 2 AS n', [])).toEqual([{ n: 2 }]);
  });

  it('a statement first parsed in a part an error cut short still runs in the parts after the Sync', async () => {
    await s.run('DELETE FROM pipe', []);
    // a text of its own: this session has not prepared it yet
    const fresh = `${INSERT} -- after an error`;
    const p = s.pipeline!();
    p.send('SELECT 1 / $1::int', [0]);
    p.send(fresh, [1]);
    p.sync();
    p.send(fresh, [2]);
    p.send(fresh, [3]);
    await expect(p.end()).rejects.toMatchObject({ code: '22012' });
    expect((await rows()).map((x) => x.k)).toEqual([2, 3]);
    // and the named statement is usable afterwards, in and out of pipelines
    const q = s.pipeline!();
    q.send(fresh, [4]);
    await q.end();
    await s.run(fresh, [5]);
    expect((await rows()).map((x) => x.k)).toEqual([2, 3, 4, 5]);
  });

  it("a BEGIN before a Sync is the caller's transaction: it goes on past the Sync until COMMIT", async () => {
    await s.run('DELETE FROM pipe', []);
    const p = s.pipeline!();
    p.control('begin');
    p.send(INSERT, [1]);
    p.sync();
    p.send(INSERT, [2]);
    p.control('commit');
    p.sync();
    p.send(INSERT, [3]);
    await p.end();
    const r = await rows();
    expect(r.map((x) => x.k)).toEqual([1, 2, 3]);
    expect(r[0]!.tx).toBe(r[1]!.tx);
    expect(r[2]!.tx).not.toBe(r[0]!.tx);
  });

  it('prepares named statements in the pipeline once (pgbench -M prepared), and reuses them in and out of pipelines', async () => {
    await s.run('DELETE FROM pipe', []);
    for (let round = 0; round < 2; round++) {
      const p = s.pipeline!();
      p.send(INSERT, [10 + round]);
      p.send(INSERT, [20 + round]);
      await p.end();
    }
    await s.run(INSERT, [30]);
    expect((await rows()).map((x) => x.k)).toEqual([10, 11, 20, 21, 30]);
    const prepared = await s.run('SELECT statement FROM pg_prepared_statements WHERE statement = $1', [INSERT]);
    expect(prepared).toHaveLength(1);
  });
});
