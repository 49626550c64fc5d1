import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tprochHooks, tprochNewSales, tprochQueryParams, tprochQueryText, tprochOldSalesKeys, type Driver, type TprochAdmin, type TprochHooks, type TprochNewOrder, type TprochParamValues, type TprochQueryText, type TprochStream } from '@sledge/core';
import { TPROCH_TABLES, type Target, type TprochTable } from '@sledge/protocol';
import { dataUnits, fixtureNewSales, fixtureParams, generatedData, tprochFixture, validationParams, type TprochFixture } from './tproch-fixture.js';

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
  /** When a string, the statement-timeout test is skipped with that reason. */
  skipTimeout?: string | false;
  /**
   * The data loaded: 'generated' (default) is core's generator at SF 0.01
   * (TPC-H's own data: Q1 returns its 4 groups); 'fixture' is the small
   * hand-made data set of tproch-fixture.ts.
   */
  data?: 'generated' | 'fixture';
  /** How long cancel() may take to stop the slow query, ms (default 1000). */
  cancelWithinMs?: number;
  /** Engine checks on the built schema, run by the build test after finishSchema (e.g. the foreign keys are there and enforced). */
  afterBuild?: (target: T) => Promise<void>;
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
    // Built in beforeAll, so a skipped suite never generates data.
    let ds: Dataset;
    let fixture: TprochFixture;
    let expected: Record<TprochTable, number>;
    let hooks: TprochHooks<T>;
    let admin: TprochAdmin;
    let stream: TprochStream;
    let streamOpen = false;
    const query = (q: number): TprochQueryText => tprochQueryText(o.queries, q, ds.params[q]!);

    beforeAll(async () => {
      ds = dataset(o.data ?? 'generated');
      fixture = ds.data;
      expected = Object.fromEntries(TPROCH_TABLES.map((t) => [t, fixture[t].length])) as Record<TprochTable, number>;
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
      await admin.createSchema({ scaleFactor: ds.scaleFactor, buildVus: 1 });
      if (admin.assertBuildable) await expect(admin.assertBuildable()).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS' });
      const loader = await hooks.openLoader(o.target, log);
      try {
        for (const unit of dataUnits(fixture, hooks.bulkFormat(o.target))) await loader.load(unit);
      } finally {
        await loader.close();
      }
      const steps: string[] = [];
      await admin.finishSchema({ scaleFactor: ds.scaleFactor, buildVus: 1 }, (s) => steps.push(s));
      expect(steps.length).toBeGreaterThanOrEqual(2);
      await o.afterBuild?.(o.target);
      expect(await admin.rowCounts()).toEqual(expected);
      expect(await admin.schemaState()).toEqual({ exists: true, scaleFactor: fixture.supplier.length / 10000 });
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
          if (ds.kind === 'generated') expect(r.rows, 'Q1 on TPC-H data: A-F, N-F, N-O, R-F').toBe(4);
        }
      }
      // The fixture is small: most queries, not all, find rows for these parameters.
      expect(returning.length, `queries returning rows: ${returning.join(' ')}`).toBeGreaterThanOrEqual(ds.minReturning);
      // Q15 runs again (its view, where the engine uses one, was dropped).
      expect((await stream.query(query(15))).rows).toBeGreaterThan(0);
    });

    it('DATE values come back as the YYYY-MM-DD text stored, whatever the time zone of the process', async () => {
      // Q3 returns o_orderdate: each row's date is its order's date as loaded.
      const orderDate = new Map(fixture.orders.map((r) => [Number(r[0]), String(r[4])]));
      const tz = process.env['TZ'];
      try {
        // Los Angeles is behind UTC, Tokyo ahead of it: a date read as local midnight shows another day in one of them.
        for (const [zone, offset] of [['America/Los_Angeles', [420, 480]], ['Asia/Tokyo', [-540]]] as const) {
          process.env['TZ'] = zone;
          expect(offset, `TZ=${zone} took effect`).toContain(new Date(1995, 2, 5).getTimezoneOffset());
          const r = await stream.query(query(3), { fetch: true });
          expect(r.rows, 'Q3 returns rows').toBeGreaterThan(0);
          for (const row of r.data!) expect(row[2], `TZ=${zone}: o_orderdate of order ${String(row[0])}`).toBe(orderDate.get(Number(row[0])));
        }
      } finally {
        if (tz === undefined) delete process.env['TZ'];
        else process.env['TZ'] = tz;
      }
    });

    it('explains every query as text without running it', async () => {
      for (let q = 1; q <= 22; q++) {
        const plan = await stream.explain(query(q));
        expect(typeof plan, `Q${q}`).toBe('string');
        expect(plan.trim().length, `Q${q}`).toBeGreaterThan(0);
      }
    });

    it('runs the 22 queries with drawn substitution parameters (two streams, seeded)', async () => {
      for (const s of [1, 2]) {
        const values = tprochQueryParams({ seed: 11, stream: s, set: 1, scaleFactor: ds.scaleFactor });
        for (let q = 1; q <= 22; q++) {
          const r = await stream.query(tprochQueryText(o.queries, q, values[q]!));
          expect(r.rows, `stream ${s} Q${q}`).toBeGreaterThanOrEqual(0);
        }
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

    it.skipIf(Boolean(o.skipTimeout))('the statement timeout stops a long query', async () => {
      const s = await hooks.openStream(o.target, { stream: 2, dop: 1, queryTimeoutSec: 1, log });
      try {
        const t0 = Date.now();
        const e = await s.query({ query: 0, statements: [{ sql: o.slowQuery, timed: true }] }).then(
          () => 'finished',
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(Error);
        expect(Date.now() - t0).toBeLessThan(4000);
        expect((await s.query(query(6))).rows).toBe(1);
      } finally {
        await s.close();
      }
    });

    it('RF1 inserts new sales, RF2 deletes old sales: the row counts follow', async () => {
      const linesOf = new Map<number, number>();
      for (const l of fixture.lineitem) linesOf.set(Number(l[0]), (linesOf.get(Number(l[0])) ?? 0) + 1);
      for (const x of ds.newSales) linesOf.set(Number(x.order[0]), x.lineitems.length);
      const added = ds.newSales.reduce((n, x) => n + x.lineitems.length, 0);
      const removed = ds.oldKeys.reduce((n, k) => n + (linesOf.get(k) ?? 0), 0);
      const refresh = await hooks.openStream(o.target, { stream: 3, dop: 1, queryTimeoutSec: 0, log });
      try {
        const t0 = Date.now();
        await refresh.newSales(ds.newSales, { trickleMs: 20, commitEvery: 4, stopped: () => false });
        expect(Date.now() - t0).toBeGreaterThanOrEqual(ds.newSales.length * 20);
        const after = await admin.rowCounts();
        expect(after.orders).toBe(expected.orders + ds.newSales.length);
        expect(after.lineitem).toBe(expected.lineitem + added);
        await refresh.oldSales(ds.oldKeys, { trickleMs: 0, commitEvery: 1000, stopped: () => false });
        const end = await admin.rowCounts();
        expect(end.orders).toBe(expected.orders + ds.newSales.length - ds.oldKeys.length);
        expect(end.lineitem).toBe(expected.lineitem + added - removed);
        // stopped() is checked before each order.
        let n = 0;
        await refresh.newSales(ds.moreSales, { trickleMs: 0, commitEvery: 1000, stopped: () => n++ >= 2 });
        expect((await admin.rowCounts()).orders).toBe(end.orders + 2);
        await refresh.oldSales(
          ds.moreSales.slice(0, 2).map((x) => Number(x.order[0])),
          { trickleMs: 0, commitEvery: 1, stopped: () => false },
        );
        expect(await admin.rowCounts()).toEqual(end);
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

interface Dataset {
  kind: 'generated' | 'fixture';
  scaleFactor: number;
  data: TprochFixture;
  params: Record<number, TprochParamValues>;
  /** At least this many of the 22 queries return rows with these parameters. */
  minReturning: number;
  /** RF1 orders, and the RF2 keys deleted after them. */
  newSales: TprochNewOrder[];
  oldKeys: number[];
  /** More RF1 orders (keys of their own) for the stopped() check. */
  moreSales: TprochNewOrder[];
}

const GENERATED_SF = 0.01;

function dataset(kind: 'generated' | 'fixture'): Dataset {
  if (kind === 'fixture') {
    const data = tprochFixture();
    const sales = fixtureNewSales(10);
    return {
      kind,
      scaleFactor: data.supplier.length / 10000,
      data,
      params: fixtureParams(data),
      minReturning: 14,
      newSales: sales.slice(0, 5),
      oldKeys: sales.slice(0, 5).map((x) => Number(x.order[0])),
      moreSales: sales.slice(5),
    };
  }
  return {
    kind,
    scaleFactor: GENERATED_SF,
    data: generatedData(GENERATED_SF),
    params: validationParams(GENERATED_SF),
    minReturning: 18,
    newSales: tprochNewSales(GENERATED_SF, 1),
    oldKeys: tprochOldSalesKeys(GENERATED_SF, 1),
    moreSales: tprochNewSales(GENERATED_SF, 2).slice(0, 5),
  };
}
