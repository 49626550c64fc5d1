import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TproccGenerator,
  TproccVuInputs,
  checkSampleWarehouses,
  evaluateCheck,
  itemUnits,
  warehouseUnits,
  type AdminSession,
  type Driver,
  type TxInputs,
  type TxOutcome,
  type VuSession,
  tproccTarget,
} from '@sledge/core';
import { DEFAULT_MIX, SledgeError, type Target, type TxType } from '@sledge/protocol';

export interface ContractOptions<T extends Target> {
  /** Suite title, e.g. "postgresql". */
  name: string;
  driver: Driver<T>;
  /** A target whose schema the suite may drop and rebuild. */
  target: T;
  /** When a string, the suite is skipped with that reason (e.g. "SLEDGE_MSSQL_URL not set"). */
  skip?: string | false;
  /** Warehouses to build (default 1). */
  warehouses?: number;
  /** The same target with a wrong password: openAdmin must fail with SLEDGE_E_AUTH. */
  badAuthTarget?: T;
  /** The same target pointing at a closed port: openAdmin must fail with SLEDGE_E_CONNECT. */
  unreachableTarget?: T;
  timeoutMs?: number;
  /**
   * Runs the mixed-workload test alone on the machine (the tiers' quiet(),
   * scripts/test-quiet.mjs) with its timeout widened for the wait: an engine
   * TPM source is server-wide, so another suite's commits or a dropped
   * database move it too.
   */
  quiet?: { run: <R>(fn: () => Promise<R>) => Promise<R>; timeout: (ms: number) => number };
  /**
   * Other ways the VUs run on the same schema (PostgreSQL's client-side SQL,
   * target.noStoredProcs; MariaDB's prepared CALLs, target.prepared): the
   * transaction-effect, mixed-workload and lost-connection tests run again
   * with each variant's target for the VU sessions, without a second build.
   */
  vuVariants?: { name: string; target: T }[];
}

const NOW = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

async function runTx<K extends TxType>(s: VuSession, t: K, input: TxInputs[K]): Promise<TxOutcome> {
  return await s.run(t, input);
}

async function expectSledgeError(p: Promise<unknown>, code: string): Promise<SledgeError> {
  try {
    await p;
  } catch (e) {
    expect(SledgeError.is(e), `expected a SledgeError, got ${String(e)}`).toBe(true);
    expect((e as SledgeError).code).toBe(code);
    expect(String((e as Error).message)).not.toMatch(/wrong-password-for-test/);
    return e as SledgeError;
  }
  throw new Error(`expected ${code}, but the call succeeded`);
}

/**
 * The driver contract: every engine passes the same suite. It builds a
 * small TPROC-C schema through the driver's own bulk path, checks it, runs
 * each transaction and a mixed workload, and verifies consistency after.
 */
export function driverContract<T extends Target>(opts: ContractOptions<T>): void {
  const { driver } = opts;
  // The TPROC-C hooks get the target with its schema options (those it carries, defaults for the rest).
  const target = tproccTarget(opts.target);
  const tprocc = driver.workloads.tprocc;
  if (!tprocc) throw new Error(`the ${driver.engine} driver has no TPROC-C hooks (driver.workloads.tprocc)`);
  const W = opts.warehouses ?? 1;
  const timeout = opts.timeoutMs ?? 300_000;
  const suite = opts.skip ? describe.skip : describe;
  const logs: string[] = [];
  const log = (l: string) => void logs.push(l);

  suite(`driver contract: ${opts.name}${opts.skip ? ` (skipped: ${opts.skip})` : ''}`, () => {
    let admin: AdminSession;

    beforeAll(async () => {
      admin = await tprocc.openAdmin(target, log);
    }, timeout);

    afterAll(async () => {
      await admin?.close();
    });

    it('loads its client library', async () => {
      const p = await driver.probe();
      expect(p.available, p.reason).toBe(true);
      expect(driver.engine).toBe(target.engine);
      const f = driver.features(target);
      expect(['engine', 'client']).toContain(f.tpmSource);
      expect(['pg-text', 'csv', 'tuples']).toContain(tprocc.bulkFormat(target));
      for (const v of opts.vuVariants ?? []) expect(['engine', 'client'], v.name).toContain(driver.features(tproccTarget(v.target)).tpmSource);
    });

    it('reports the server version', async () => {
      expect(await admin.serverVersion()).toMatch(/\d+\.\d+/);
      const session = await driver.openSession(target, log);
      try {
        expect(await session.serverVersion()).toMatch(/\d+\.\d+/);
      } finally {
        await session.close();
      }
    });

    if (opts.badAuthTarget) {
      const bad = tproccTarget(opts.badAuthTarget);
      it('refuses wrong credentials with SLEDGE_E_AUTH', async () => {
        const e = await expectSledgeError(
          tprocc.openAdmin(bad, log).then(async (a) => {
            try {
              await a.serverVersion();
              await a.schemaState();
            } finally {
              await a.close();
            }
          }),
          'SLEDGE_E_AUTH',
        );
        expect(e.field).toMatch(/^target\./);
      }, timeout);
    }
    if (opts.unreachableTarget) {
      const bad = tproccTarget(opts.unreachableTarget);
      it('reports an unreachable server with SLEDGE_E_CONNECT', async () => {
        const e = await expectSledgeError(
          tprocc.openAdmin(bad, log).then(async (a) => {
            try {
              await a.serverVersion();
            } finally {
              await a.close();
            }
          }),
          'SLEDGE_E_CONNECT',
        );
        expect(e.field).toMatch(/^target\./);
      }, timeout);
    }

    it('drops and creates the schema', async () => {
      await admin.dropSchema();
      await admin.dropSchema(); // idempotent
      expect((await admin.schemaState()).exists).toBe(false);
      await admin.createSchema({ warehouses: W, buildVus: 1 });
      const s = await admin.schemaState();
      expect(s.exists).toBe(true);
      expect(s.warehouses).toBe(0);
    }, timeout);

    it(`loads ${W} warehouse(s) through its bulk path and finishes the schema`, async () => {
      const format = tprocc.bulkFormat(target);
      const gen = new TproccGenerator({ seed: 4242, timestamp: NOW() }, format);
      const [l1, l2] = await Promise.all([tprocc.openLoader(target, log), tprocc.openLoader(target, log)]);
      try {
        const items = (async () => {
          for (const u of itemUnits()) await l1.load(gen.generate(u));
        })();
        const gen2 = new TproccGenerator({ seed: 4242, timestamp: NOW() }, format);
        const wh = (async () => {
          for (let w = 1; w <= W; w++) for (const u of warehouseUnits(w)) await l2.load(gen2.generate(u));
        })();
        await Promise.all([items, wh]);
      } finally {
        await Promise.all([l1.close(), l2.close()]);
      }
      await admin.finishSchema({ warehouses: W, buildVus: 1 });
      expect(await admin.schemaState()).toEqual({ exists: true, warehouses: W });
    }, timeout);

    it('passes checkschema with exact row counts', async () => {
      const facts = await admin.checkFacts(checkSampleWarehouses(W));
      const items = evaluateCheck(facts, W);
      expect(items.filter((i) => !i.ok)).toEqual([]);
      expect(facts.rowCounts.item).toBe(100000);
      expect(facts.rowCounts.stock).toBe(100000 * W);
      expect(facts.rowCounts.customer).toBe(30000 * W);
      expect(facts.rowCounts.orders).toBe(30000 * W);
      expect(facts.rowCounts.new_order).toBe(9000 * W);
    }, timeout);

    it('reads NOPM and TPM counters', async () => {
      const c = await admin.readCounters();
      expect(c.nopm).toBe(3001 * 10 * W);
      if (driver.features(target).tpmSource === 'engine') expect(typeof c.tpm).toBe('number');
      else expect(c.tpm).toBeNull();
    }, timeout);

    const alone = <R>(fn: () => Promise<R>) => (opts.quiet ? opts.quiet.run(fn) : fn());
    for (const [label, vuTarget] of [['', target] as const, ...(opts.vuVariants ?? []).map((v) => [` (${v.name})`, tproccTarget(v.target)] as const)]) {
      it(`runs each transaction with the specified effects${label}`, async () => {
        const vu = await tprocc.openVu(vuTarget, { vu: 2, log });
        try {
          const wl = new TproccVuInputs(99, { warehouses: W, position: 2, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX });
          const before = await admin.readCounters();
          let no = wl.input('neworder');
          while (no.rollback) no = wl.input('neworder');
          expect(await runTx(vu, 'neworder', no)).toBe('commit');
          expect((await admin.readCounters()).nopm).toBe(before.nopm + 1);

          let rb = wl.input('neworder');
          while (!rb.rollback) rb = wl.input('neworder');
          expect(await runTx(vu, 'neworder', rb)).toBe('rollback');
          expect((await admin.readCounters()).nopm).toBe(before.nopm + 1);

          for (const byname of [false, true]) {
            let p = wl.input('payment');
            while (p.byname !== byname) p = wl.input('payment');
            expect(await runTx(vu, 'payment', p)).toBe('commit');
            let os = wl.input('orderstatus');
            while (os.byname !== byname) os = wl.input('orderstatus');
            expect(await runTx(vu, 'orderstatus', os)).toBe('commit');
          }
          const beforeDelivery = await admin.checkFacts([wl.homeW]);
          const noBefore = beforeDelivery.warehouses[0]!.districts.reduce((s, d) => s + d.no_count, 0);
          expect(await runTx(vu, 'delivery', wl.input('delivery'))).toBe('commit');
          const afterDelivery = await admin.checkFacts([wl.homeW]);
          const noAfter = afterDelivery.warehouses[0]!.districts.reduce((s, d) => s + d.no_count, 0);
          expect(noBefore - noAfter).toBe(10);
          expect(await runTx(vu, 'stocklevel', wl.input('stocklevel'))).toBe('commit');
          const items = evaluateCheck(afterDelivery, null).filter((i) => i.name.startsWith('C'));
          expect(items.filter((i) => !i.ok)).toEqual([]);
        } finally {
          await vu.close();
        }
      }, timeout);

      it(`runs a mixed workload on two sessions and stays consistent${label}`, () => alone(async () => {
        const before = await admin.readCounters();
        const run = async (position: number) => {
          const s = await tprocc.openVu(vuTarget, { vu: position, log });
          const wl = new TproccVuInputs(7 + position, { warehouses: W, position, activeVus: 2, allWarehouse: false, mix: DEFAULT_MIX });
          const out = { commit: 0, rollback: 0, errors: 0, neworder: 0 };
          try {
            for (let i = 0; i < 300; i++) {
              const t = wl.nextType();
              try {
                const r = await runTx(s, t, wl.input(t));
                out[r]++;
                if (t === 'neworder' && r === 'commit') out.neworder++;
              } catch (e) {
                const c = driver.classifyError(e);
                // Deadlocks/serialization failures are legitimate under concurrency; anything else is a bug.
                if (!c.retryable) throw e;
                out.errors++;
              }
            }
          } finally {
            await s.close();
          }
          return out;
        };
        const features = driver.features(vuTarget);
        const results = features.asyncSessions ? await Promise.all([run(2), run(3)]) : [await run(2), await run(3)];
        const commits = results.reduce((s, r) => s + r.commit, 0);
        const newOrders = results.reduce((s, r) => s + r.neworder, 0);
        expect(commits).toBeGreaterThan(550);
        const after = await admin.readCounters();
        expect(after.nopm - before.nopm).toBe(newOrders);
        if (features.tpmSource === 'engine') expect(after.tpm!).toBeGreaterThan(before.tpm!);
        const facts = await admin.checkFacts(checkSampleWarehouses(W));
        expect(evaluateCheck(facts, W).filter((i) => !i.ok && i.name !== 'row counts')).toEqual([]);
      }), opts.quiet ? opts.quiet.timeout(timeout) : timeout);

      it(`classifies a lost connection${label}`, async () => {
        const s = await tprocc.openVu(vuTarget, { vu: 9, log });
        const wl = new TproccVuInputs(1, { warehouses: W, position: 9, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX });
        await s.close();
        let err: unknown;
        try {
          await runTx(s, 'stocklevel', wl.input('stocklevel'));
        } catch (e) {
          err = e;
        }
        expect(err, 'running on a closed session must throw').toBeDefined();
        expect(driver.classifyError(err).kind).toBe('connection');
      }, timeout);
    }

    it('drops the schema', async () => {
      await admin.dropSchema();
      expect((await admin.schemaState()).exists).toBe(false);
    }, timeout);
  });
}
export * from './tproch.js';
export * from './chbench.js';
export * from './param-session.js';
