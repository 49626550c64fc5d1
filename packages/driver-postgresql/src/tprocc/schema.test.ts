import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { AdminSession } from '@sledge/core';
import type { PgTproccTarget as PostgresqlTarget } from './target.js';
import { driver } from '../index.js';
import { contractTarget } from '../testing/contract.js';
import { renderOrderLinePartitions } from './partition.js';
import { routineSteps, tableSteps } from './schema.js';

const q = { escapeIdentifier: pg.escapeIdentifier, escapeLiteral: pg.escapeLiteral };

const target: PostgresqlTarget = contractTarget('sledge_pgschema', 'sledge_pgschema', { partition: true });

describe('ORDER_LINE partition template (no database)', () => {
  it('renders floor(W/100) partitions for W = 250', () => {
    const p = renderOrderLinePartitions(250, true, q);
    expect(p).toEqual([
      'CREATE TABLE "ol_0" PARTITION OF order_line\n  FOR VALUES WITH (MODULUS 2, REMAINDER 0)',
      'CREATE TABLE "ol_1" PARTITION OF order_line\n  FOR VALUES WITH (MODULUS 2, REMAINDER 1)',
    ]);
  });

  it('renders none below 200 warehouses or when partitioning is off', () => {
    expect(renderOrderLinePartitions(199, true, q)).toEqual([]);
    expect(renderOrderLinePartitions(1, true, q)).toEqual([]);
    expect(renderOrderLinePartitions(5000, false, q)).toEqual([]);
    expect(renderOrderLinePartitions(1099, true, q)).toHaveLength(10);
  });

  it('swaps ORDER_LINE for the partitioned table only when partitions apply', () => {
    const at = (W: number) => tableSteps(target, W, q).map((s) => s.sql).filter((s) => /order_line|ol_\d/.test(s));
    expect(at(1)).toHaveLength(1);
    expect(at(1)[0]).not.toMatch(/PARTITION/);
    const big = at(250);
    expect(big).toHaveLength(3);
    expect(big[0]).toMatch(/PARTITION BY HASH \(ol_w_id\)/);
  });
});

describe('schema builds against PostgreSQL', () => {
  let admin: AdminSession | undefined;
  const open = async (t: PostgresqlTarget) => {
    await admin?.close();
    admin = await driver.workloads.tprocc!.openAdmin(t, () => undefined);
    return admin;
  };
  const inDb = async <T>(f: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ host: target.host, port: target.port, user: target.user, password: target.password, database: target.database });
    await c.connect();
    try {
      return await f(c);
    } finally {
      await c.end();
    }
  };
  const orderLineKind = () =>
    inDb(async (c) => {
      const r = await c.query<{ relkind: string; parts: string }>(
        `SELECT relkind, (SELECT count(*) FROM pg_inherits WHERE inhparent = 'order_line'::regclass) AS parts FROM pg_class WHERE oid = 'order_line'::regclass`,
      );
      return { relkind: r.rows[0]!.relkind, partitions: Number(r.rows[0]!.parts) };
    });

  afterAll(async () => {
    await admin?.dropSchema();
    await admin?.close();
  });

  it('partition on with W = 1 creates a plain ORDER_LINE (partitions need W >= 200)', async () => {
    const a = await open(target);
    await a.dropSchema();
    await a.createSchema({ warehouses: 1, buildVus: 1 });
    expect(await orderLineKind()).toEqual({ relkind: 'r', partitions: 0 });
    await a.dropSchema();
  });

  it('partition on with W = 200 creates a hash-partitioned ORDER_LINE that takes its key', async () => {
    const a = await open(target);
    await a.createSchema({ warehouses: 200, buildVus: 1 });
    expect(await orderLineKind()).toEqual({ relkind: 'p', partitions: 2 });
    await a.finishSchema({ warehouses: 200, buildVus: 1 });
    const facts = await a.checkFacts([]);
    expect(facts.indexed.order_line).toBe(true);
    expect(Object.values(facts.routines).every(Boolean)).toBe(true);
  });

  it('procedures replace functions (and back) without leftovers', async () => {
    const kinds = () =>
      inDb(async (c) => (await c.query<{ proname: string; prokind: string }>(
        `SELECT proname, prokind FROM pg_proc WHERE proname IN ('neword','payment','delivery','slev','ostat') AND pronamespace = 'public'::regnamespace ORDER BY 1`,
      )).rows.map((r) => `${r.proname}:${r.prokind}`));
    const apply = (storedProcs: boolean) =>
      inDb(async (c) => {
        for (const s of routineSteps({ ...target, storedProcs })) await c.query(s.sql);
      });
    expect(await kinds()).toEqual(['delivery:f', 'neword:f', 'ostat:f', 'payment:f', 'slev:f']);
    await apply(true);
    expect(await kinds()).toEqual(['delivery:p', 'neword:p', 'ostat:p', 'payment:p', 'slev:p']);
    // The functions target now sees its routines as missing; the procedures target sees them all.
    expect(Object.values((await (await open(target)).checkFacts([])).routines).some(Boolean)).toBe(false);
    expect(Object.values((await (await open({ ...target, storedProcs: true })).checkFacts([])).routines).every(Boolean)).toBe(true);
    await apply(false);
    expect(await kinds()).toEqual(['delivery:f', 'neword:f', 'ostat:f', 'payment:f', 'slev:f']);
  });

  it('a target whose database is the default database keeps the database and role and drops only the TPROC-C objects', async () => {
    const plain = { ...target, partition: false };
    let a = await open(plain);
    await a.dropSchema();
    await a.createSchema({ warehouses: 1, buildVus: 1 });
    // The same database, now named as the default database: Sledge must not create or drop it.
    const shared = { ...plain, defaultDatabase: plain.database };
    a = await open(shared);
    expect(await a.schemaState()).toEqual({ exists: true, warehouses: 0 });
    await a.dropSchema();
    expect(await a.schemaState()).toEqual({ exists: false, warehouses: 0 });
    const left = await inDb(async (c) => (await c.query(`SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace`)).rows[0].n);
    expect(left).toBe(0);
    await a.dropSchema(); // idempotent
    await a.createSchema({ warehouses: 1, buildVus: 1 });
    await a.finishSchema({ warehouses: 1, buildVus: 1 });
    const facts = await a.checkFacts([]);
    expect(Object.values(facts.tables).every(Boolean)).toBe(true);
    expect(Object.values(facts.routines).every(Boolean)).toBe(true);
    await (await open(plain)).dropSchema();
  });
});
