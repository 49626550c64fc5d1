import { describe, expect, it } from 'vitest';
import { DEFAULT_MIX, TX_PROC, TX_TYPES, defaultKeyThink, type TproccOptions } from '@sledge/protocol';
import { KEYING_SECONDS, TproccVuInputs, thinkSeconds } from './inputs.js';
import { TX_INDEX, inputSummary, tproccWorkload } from './workload.js';
import type { Driver } from '../driver.js';
import type { Counters } from './hooks.js';

const options = (o: Partial<TproccOptions> = {}) => ({ allWarehouse: false, keyAndThink: false, mix: DEFAULT_MIX, driver: 'timed', totalIterations: 100, ...o }) as TproccOptions;

describe('TPROC-C as a Workload', () => {
  it('has the five transactions in TX_TYPES order, labelled with HammerDB procedure names', () => {
    expect(tproccWorkload.operations).toEqual([...TX_TYPES]);
    expect(tproccWorkload.operationLabels).toEqual(TX_TYPES.map((t) => TX_PROC[t]));
    expect(tproccWorkload.operationTitles).toEqual(['New Order', 'Payment', 'Delivery', 'Stock Level', 'Order Status']);
    TX_TYPES.forEach((t, i) => expect(TX_INDEX[t]).toBe(i));
  });

  it('streams exactly the transactions, inputs and thinking times of TproccVuInputs (same seed, position, client)', () => {
    for (const o of [options(), options({ keyAndThink: true, allWarehouse: true })]) {
      const ctx = { seed: 42, options: o, params: { warehouses: 8 }, position: 3, activeVus: 4, client: 100001 };
      const stream = tproccWorkload.stream(ctx);
      const wl = new TproccVuInputs(42, { warehouses: 8, position: 3, activeVus: 4, allWarehouse: o.allWarehouse, mix: o.mix, client: 100001 });
      for (let n = 0; n < 500; n++) {
        const t = wl.nextType();
        const input = wl.input(t);
        const next = stream.next();
        expect(next).toEqual({ op: TX_INDEX[t], input });
        expect(stream.keyingMs(next.op)).toBe(o.keyAndThink ? KEYING_SECONDS[t] * 1000 : 0);
        expect(stream.thinkMs(next.op)).toBe(o.keyAndThink ? Math.round(thinkSeconds(wl.rng, t) * 1000) : 0);
        expect(stream.describe(next.op, next.input)).toBe(inputSummary(t, input as unknown as Record<string, unknown>));
      }
    }
  });

  it('prints the timed banner and the allwarehouse assignment', () => {
    const s = tproccWorkload.stream({ seed: 1, options: options({ allWarehouse: true, totalIterations: 7 }), params: { warehouses: 4 }, position: 2, activeVus: 2, client: 0 });
    const [processing, assigned] = s.banner!();
    expect(processing).toBe('Processing 7 transactions with output suppressed...');
    expect(assigned).toMatch(/^Assigned 2 WIDs = \d \d based on VU count 2, Warehouses = 2 out of 4$/);
    expect(tproccWorkload.stream({ seed: 1, options: options({ driver: 'test' }), params: { warehouses: 4 }, position: 2, activeVus: 2, client: 0 }).banner!()).toEqual([]);
  });

  it('plans the VUs from the options (HammerDB driver settings)', () => {
    const o = { ...options({ driver: 'test' }), vus: 3, iterations: 2, repeatDelayMs: 5, raiseError: true, asyncScale: true, asyncClients: 4, asyncDelayMs: 9, userDelayMs: 11, workers: 2, rampup: 1, duration: 2, timeProfile: true, tcRefreshSec: 10 } as TproccOptions;
    expect(tproccWorkload.vuPlan(o)).toEqual({
      vus: 3,
      mode: 'test',
      opsPerIteration: 100,
      iterations: 2,
      repeatDelayMs: 5,
      raiseError: true,
      paced: false,
      async: true,
      clients: 4,
      clientDelayMs: 9,
      asyncVerbose: false,
      userDelayMs: 11,
      workers: 2,
      rampupMinutes: 1,
      durationMinutes: 2,
      timeProfile: true,
      monitorIntervalSec: 10,
      reconnect: true,
      maxTries: 1,
      retryOn: ['serialization'],
    });
    expect(tproccWorkload.vuPlan({ ...o, asyncScale: false }).clients).toBe(1);
    expect(tproccWorkload.vuPlan({ ...o, asyncVerbose: true }).asyncVerbose).toBe(true);
    expect(tproccWorkload.vuPlan({ ...o, asyncScale: false, asyncVerbose: true }).asyncVerbose).toBe(false);
  });

  it('paces with the run\'s keying and thinking table (tprocc.keyThink), TPC-C defaults when it is absent', () => {
    const keyThink = { ...defaultKeyThink(), neworder: { keyingSec: 0.25, thinkMeanSec: 0.5 }, payment: { keyingSec: 0, thinkMeanSec: 0 } };
    const o = options({ keyAndThink: true, keyThink });
    const stream = tproccWorkload.stream({ seed: 7, options: o, params: { warehouses: 2 }, position: 2, activeVus: 1, client: 0 });
    expect(stream.keyingMs(TX_INDEX.neworder)).toBe(250);
    expect(stream.keyingMs(TX_INDEX.payment)).toBe(0);
    expect(stream.thinkMs(TX_INDEX.payment)).toBe(0);
    expect(stream.keyingMs(TX_INDEX.delivery)).toBe(2000);
    const thinks = Array.from({ length: 4000 }, () => stream.thinkMs(TX_INDEX.neworder));
    const mean = thinks.reduce((a, b) => a + b, 0) / thinks.length;
    expect(mean).toBeGreaterThan(450);
    expect(mean).toBeLessThan(550);
    expect(Math.max(...thinks)).toBeLessThanOrEqual(5000);
    const legacy = { ...options({ keyAndThink: true }) } as Partial<TproccOptions>;
    delete legacy.keyThink;
    const old = tproccWorkload.stream({ seed: 7, options: legacy as TproccOptions, params: { warehouses: 2 }, position: 2, activeVus: 1, client: 0 });
    expect(old.keyingMs(TX_INDEX.neworder)).toBe(18000);
  });

  it('truncates thinking time at 10x its mean (TPC-C 5.2.5.4)', () => {
    const rng = { random: () => 1 - 1e-12 } as never;
    expect(thinkSeconds(rng, 'neworder')).toBe(120);
    expect(thinkSeconds(rng, 'stocklevel', 0.1)).toBe(1);
  });

  it('headlines NOPM', () => {
    expect(tproccWorkload.headline({ nopm: 1234, tpm: 5000 } as never)).toEqual({ metric: 'nopm', value: 1234, unit: 'NOPM' });
  });

  it('monitors a run: schema check, live NOPM/TPM, the result and its lines', async () => {
    let counters: Counters = { nopm: 0, tpm: 100 };
    let state = { exists: false, warehouses: 0 };
    const admin = { serverVersion: async () => '1.0', schemaState: async () => state, readCounters: async () => counters, afterRun: async () => undefined, close: async () => undefined };
    const driver = { engine: 'postgresql', workloads: { tprocc: { openAdmin: async () => admin } } } as unknown as Driver;
    const rc = (tpmSource: 'engine' | 'client', o = options()) =>
      tproccWorkload.openMonitor({ driver, target: { engine: 'postgresql' } as never, engine: 'postgresql', features: { tpmSource } as never, options: { ...o, vus: 2, asyncClients: 10 }, log: () => undefined });
    const m = await rc('engine');
    await expect(m.prepare()).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_MISSING' });
    state = { exists: true, warehouses: 5 };
    expect(await m.prepare()).toEqual({ params: { warehouses: 5 }, summary: '5 warehouses', runInfo: { warehouses: 5 } });
    expect(m.live(await m.read(), 1000, 0, 10)).toEqual({ ts: 1000, tpm: 0, nopm: 0 });
    counters = { nopm: 60, tpm: 400 };
    expect(m.live(await m.read(), 11000, 0, 10)).toEqual({ ts: 11000, tpm: 300 * 6, nopm: 360 });
    const out = m.result({ start: { nopm: 0, tpm: 100 }, end: { nopm: 600, tpm: 2100 }, seconds: 60, clientOps: 1500, clientCpuMsPer1000: 2.5, vus: 2 });
    expect(out.result).toEqual({ nopm: 600, tpm: 2000, activeVus: 2, tpmSource: 'engine', line: 'TEST RESULT : System achieved 600 NOPM from 2000 PostgreSQL TPM', measuredSeconds: 60, transactions: 1500, warehouses: 5, clientCpuMsPer1000Tx: 2.5, sessions: 2, mix: DEFAULT_MIX, standardMix: true });
    expect(out.lines).toEqual(['2 Active Virtual Users configured', 'TEST RESULT : System achieved 600 NOPM from 2000 PostgreSQL TPM']);
    const c = await rc('client', options({ asyncScale: true }));
    await c.prepare();
    const cout = c.result({ start: { nopm: 0, tpm: null }, end: { nopm: 600, tpm: null }, seconds: 30, clientOps: 1500, vus: 2 });
    expect(cout.result).toMatchObject({ tpm: 3000, activeVus: 20, sessions: 20, tpmSource: 'client' });
    expect(cout.result).not.toHaveProperty('clientCpuMsPer1000Tx');
    expect(cout.lines).toEqual(['2 VU * 10 AC = 20 Active Sessions configured', 'TEST RESULT : System achieved 1200 NOPM from 3000 PostgreSQL TPM', 'PostgreSQL TPM is counted client-side: commits + rollbacks of the virtual users']);
    // A non-standard mix (tprocc.mix): said at the start, recorded in the result, and a line after the TEST RESULT.
    const only = { neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 };
    const n = await rc('engine', options({ mix: only }));
    expect((await n.prepare()).summary).toBe('5 warehouses, non-standard transaction mix (neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0)');
    const nout = n.result({ start: { nopm: 0, tpm: 100 }, end: { nopm: 600, tpm: 2100 }, seconds: 60, clientOps: 1500, vus: 2 });
    expect(nout.result).toMatchObject({ mix: only, standardMix: false });
    expect(nout.lines.at(-1)).toBe("Transaction mix neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0: not HammerDB's standard 10/10/1/1/1, so this NOPM is not comparable with HammerDB's standard runs");
  });
});
