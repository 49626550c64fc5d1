import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tprochHooks, type Driver, type TprochAdmin, type TprochHooks, type TprochQueryText, type TprochStream } from '@sledge/core';
import { TPROCH_TABLES, type Target, type TprochTable } from '@sledge/protocol';
import { FIXTURE_SIZES, fixtureNewSales, fixtureParams, fixtureUnits, tprochFixture, tprochQueryText } from './tproch-fixture.js';

export * from './tproch-fixture.js';

export interface TprochContractOptions<T extends Target> {
  /** Suite title, e.g. "postgresql". */
  name: string;
  driver: Driver<T>;
  /** A target whose TPROC-H schema the suite may drop and rebuild. */
  target: T;
  /** When a string, the suite is skipped with that reason. */
  skip?: string | false;
  /** The engine's queries.sql as named statements (`sqlSet(engine, 'tproch').statements('queries.sql')`). */
  queries: Readonly<Record<string, string>>;
  /** A statement that runs for well over 5 seconds (cancel and statement-timeout tests). */
  slowQuery: string;
  /** How long cancel() may take to stop the slow query, ms (default 1000). */
  cancelWithinMs?: number;
}

/** Row limits of the specification (Q2 100, Q3 10, Q10 20, Q18 100, Q21 100). */
const LIMITS: Record<number, number> = { 2: 100, 3: 10, 10: 20, 18: 100, 21: 100 };

const log = () => undefined;

/**
 * The TPROC-H contract every driver with `workloads.tproch` passes against a
 * live engine: schema lifecycle with the fixture data set, the 22 queries,
 * EXPLAIN, cancel, statement timeout, RF1/RF2.
 */
export function tprochContract<T extends Target>(o: TprochContractOptions<T>): void {
  describe.skipIf(Boolean(o.skip))(`TPROC-H contract: ${o.name}`, () => {
    const fixture = tprochFixture();
    const params = fixtureParams(fixture);
    let hooks: TprochHooks<T>;
    let admin: TprochAdmin;
    let stream: TprochStream;
    let streamOpen = false;
    const query = (q: number): TprochQueryText => tprochQueryText(o.queries, q, params[q]!);
    const expected = Object.fromEntries(TPROCH_TABLES.map((t) => [t, fixture[t].length])) as Record<TprochTable, number>;

    beforeAll(async () => {
      hooks = tprochHooks(o.driver);
      admin = await hooks.openAdmin(o.target, log);
      await admin.dropSchema();
    });

    afterAll(async () => {
      if (streamOpen) await stream.close();
      if (admin) {
        await admin.dropSchema();
        await admin.close();
      }
    });

    it('builds the schema: create, load, keys and statistics, row counts, scale factor', async () => {
      expect(await admin.schemaState()).toEqual({ exists: false, scaleFactor: 0 });
      expect(await admin.serverVersion()).toMatch(/\d+\.\d+/);
      await admin.createSchema({ scaleFactor: 0.002, buildVus: 1 });
      if (admin.assertBuildable) await expect(admin.assertBuildable()).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS' });
      const loader = await hooks.openLoader(o.target, log);
      try {
        for (const unit of fixtureUnits(fixture, hooks.bulkFormat(o.target))) await loader.load(unit);
      } finally {
        await loader.close();
      }
      const steps: string[] = [];
      await admin.finishSchema({ scaleFactor: 0.002, buildVus: 1 }, (s) => steps.push(s));
      expect(steps.length).toBeGreaterThanOrEqual(2);
      expect(await admin.rowCounts()).toEqual(expected);
      expect(await admin.schemaState()).toEqual({ exists: true, scaleFactor: FIXTURE_SIZES.supplier / 10000 });
    });

    it('runs each of the 22 queries with valid parameters', async () => {
      stream = await hooks.openStream(o.target, { stream: 1, dop: 2, queryTimeoutSec: 0, log });
      streamOpen = true;
      const returning: number[] = [];
      for (let q = 1; q <= 22; q++) {
        const r = await stream.query(query(q), { fetch: true });
        expect(r.ms, `Q${q}`).toBeGreaterThanOrEqual(0);
        expect(r.data?.length, `Q${q}`).toBe(r.rows);
        if (LIMITS[q] !== undefined) expect(r.rows, `Q${q} limit`).toBeLessThanOrEqual(LIMITS[q]!);
        if (r.rows > 0) returning.push(q);
        if (q === 1) {
          const cutoff = new Date(Date.UTC(1998, 11, 1) - 90 * 86_400_000).toISOString().slice(0, 10);
          const groups = new Set(fixture.lineitem.filter((l) => String(l[10]) <= cutoff).map((l) => `${String(l[8])}${String(l[9])}`));
          expect(r.rows, 'Q1 groups').toBe(groups.size);
        }
      }
      // The fixture is small: most queries, not all, find rows for these parameters.
      expect(returning.length, `queries returning rows: ${returning.join(' ')}`).toBeGreaterThanOrEqual(14);
      // Q15 runs again (its view, where the engine uses one, was dropped).
      expect((await stream.query(query(15))).rows).toBeGreaterThan(0);
    });

    it('explains every query as text without running it', async () => {
      for (let q = 1; q <= 22; q++) {
        const plan = await stream.explain(query(q));
        expect(typeof plan, `Q${q}`).toBe('string');
        expect(plan.trim().length, `Q${q}`).toBeGreaterThan(0);
      }
    });

    it('cancel() stops a running query, and the stream goes on', async () => {
      const running = stream.query({ query: 0, statements: [{ sql: o.slowQuery, timed: true }] });
      const outcome = running.then(
        () => 'finished',
        (e: unknown) => e,
      );
      await new Promise((r) => setTimeout(r, 500));
      const t0 = Date.now();
      await stream.cancel();
      const e = await outcome;
      expect(Date.now() - t0).toBeLessThan(o.cancelWithinMs ?? 1000);
      expect(e).toBeInstanceOf(Error);
      expect(o.driver.classifyError(e).message.length).toBeGreaterThan(0);
      expect((await stream.query(query(6))).rows).toBe(1);
    });

    it('the statement timeout stops a long query', async () => {
      const s = await hooks.openStream(o.target, { stream: 2, dop: 1, queryTimeoutSec: 1, log });
      try {
        const t0 = Date.now();
        const e = await s.query({ query: 0, statements: [{ sql: o.slowQuery, timed: true }] }).then(
          () => 'finished',
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(Error);
        expect(Date.now() - t0).toBeLessThan(4000);
        expect((await s.query(query(1))).rows).toBeGreaterThan(0);
      } finally {
        await s.close();
      }
    });

    it('RF1 inserts new sales and RF2 deletes them: the row counts come back', async () => {
      const sales = fixtureNewSales(5);
      const lines = sales.reduce((n, s) => n + s.lineitems.length, 0);
      const refresh = await hooks.openStream(o.target, { stream: 3, dop: 1, queryTimeoutSec: 0, log });
      try {
        const t0 = Date.now();
        await refresh.newSales(sales, { trickleMs: 20, commitEvery: 2, stopped: () => false });
        expect(Date.now() - t0).toBeGreaterThanOrEqual(5 * 20);
        const after = await admin.rowCounts();
        expect(after.orders).toBe(expected.orders + 5);
        expect(after.lineitem).toBe(expected.lineitem + lines);
        await refresh.oldSales(
          sales.map((s) => Number(s.order[0])),
          { trickleMs: 0, commitEvery: 1000, stopped: () => false },
        );
        expect(await admin.rowCounts()).toEqual(expected);
        // stopped() is checked before each order.
        let n = 0;
        await refresh.newSales(sales, { trickleMs: 0, commitEvery: 1000, stopped: () => n++ >= 2 });
        expect((await admin.rowCounts()).orders).toBe(expected.orders + 2);
        await refresh.oldSales(
          sales.slice(0, 2).map((s) => Number(s.order[0])),
          { trickleMs: 0, commitEvery: 1, stopped: () => false },
        );
        expect(await admin.rowCounts()).toEqual(expected);
      } finally {
        await refresh.close();
      }
    });

    it('drops the schema (idempotent)', async () => {
      streamOpen = false;
      await stream.close();
      await admin.dropSchema();
      expect(await admin.schemaState()).toEqual({ exists: false, scaleFactor: 0 });
      await admin.dropSchema();
    });
  });
}
