import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIX, TX_TYPES } from '@sledge/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPgVuLoop, pgVuCandidatePaths, type PgVuStartOptions } from '../lib/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'sledge-pgvu-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('loading the native VU loop', () => {
  it('looks for a prebuild first, then build/Release/sledge_pgvu.node', () => {
    const p = pgVuCandidatePaths();
    expect(p[0]).toMatch(new RegExp(`prebuilds[\\\\/]${process.platform}-${process.arch}[\\\\/]sledge_pgvu\\.node$`));
    expect(p[1]).toMatch(/build[\\/]Release[\\/]sledge_pgvu\.node$/);
  });

  it('loads the built target once per thread and reports the libpq version', () => {
    const a = loadPgVuLoop();
    expect(a.available, a.available ? '' : a.reason).toBe(true);
    expect(loadPgVuLoop()).toBe(a);
    if (a.available) expect(a.libpqVersion).toBeGreaterThanOrEqual(100000);
  });

  it('says what is missing and how to build it when the file is not there', () => {
    const missing = join(tmp, 'sledge_pgvu.node');
    const r = loadPgVuLoop({ path: missing });
    expect(r.available).toBe(false);
    if (!r.available) {
      expect(r.reason).toContain(missing);
      expect(r.reason).toMatch(/libpq-dev/);
    }
  });

  it('refuses a file that is not a loadable addon', () => {
    const bad = join(tmp, 'bad.node');
    writeFileSync(bad, 'not an ELF file');
    const r = loadPgVuLoop({ path: bad });
    expect(r.available).toBe(false);
    if (!r.available) expect(r.reason).toMatch(/bad\.node does not load/);
  });

  it('refuses the generator addon in place of the VU loop', () => {
    const r = loadPgVuLoop({ path: pgVuCandidatePaths()[1]!.replace('sledge_pgvu', 'sledge_native') });
    expect(r.available).toBe(false);
    if (!r.available) expect(r.reason).toMatch(/not the Sledge VU loop/);
  });
});

/** Shared blocks shaped like the server's layout.ts for `vus` VUs. */
function shared(vus: number) {
  return {
    counters: new Int32Array(new SharedArrayBuffer(vus * TX_TYPES.length * 3 * 4)),
    states: new Int32Array(new SharedArrayBuffer(vus * 4)),
    control: new Int32Array(new SharedArrayBuffer(4 * 4)),
  };
}

function options(over: Partial<PgVuStartOptions> & Pick<PgVuStartOptions, 'counters' | 'states' | 'control' | 'vus'>): PgVuStartOptions {
  const stmt = Object.fromEntries(TX_TYPES.map((t) => [t, 'SELECT 1'])) as Record<(typeof TX_TYPES)[number], string>;
  return {
    spec: { kind: 'libpq', conninfo: 'host=127.0.0.1 port=1 dbname=none user=none connect_timeout=2', statements: stmt, rollbackSqlstate: 'SLRBK' },
    seed: 1,
    warehouses: 1,
    activeVus: over.vus.length,
    allWarehouse: false,
    mix: DEFAULT_MIX,
    totalIterations: 10,
    iterations: 1,
    repeatDelayMs: 0,
    keyAndThink: false,
    raiseError: false,
    testDriver: false,
    ...over,
  };
}

async function until(cond: () => boolean, ms: number): Promise<number> {
  const t0 = performance.now();
  while (!cond()) {
    if (performance.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return performance.now() - t0;
}

describe('native VU threads', () => {
  const loop = loadPgVuLoop();
  if (!loop.available) throw new Error(loop.reason);

  it('wait for GO, then fail a VU that cannot connect, with the reason in its log and state failed', async () => {
    const sh = shared(2);
    const h = loop.start(options({ ...sh, vus: [{ index: 1, position: 3, startDelayMs: 0 }] }));
    await new Promise((r) => setTimeout(r, 100));
    expect(h.poll()).toEqual({ live: 1, logs: [] });
    Atomics.store(sh.control, 2, 1); // CTRL_GO
    const logs: { vu: number; text: string }[] = [];
    await until(() => {
      const p = h.poll();
      logs.push(...p.logs);
      return p.live === 0;
    }, 5000);
    expect(logs[0]).toEqual({ vu: 0, text: 'Vuser 3:RUNNING' });
    expect(logs[1]!.vu).toBe(3);
    expect(logs[1]!.text).toMatch(/^Error in Virtual User 3: connecting to PostgreSQL failed: .*(refused|failed)/i);
    expect(logs[1]!.text).not.toContain('password');
    expect(logs[2]).toEqual({ vu: 0, text: 'Vuser 3:FINISHED FAILED' });
    expect(Atomics.load(sh.states, 1)).toBe(4); // failed
    expect(Atomics.load(sh.states, 0)).toBe(0); // not this worker's VU: untouched
    expect(h.results()).toEqual([{ ok: false, elapsedMs: 0, totalNs: [0, 0, 0, 0, 0] }]);
    expect(h.drainLatency(() => undefined)).toBe(0);
    h.dispose();
  });

  it('end within a second of a stop during their start delays, as finished', async () => {
    const sh = shared(3);
    const vus = [0, 1, 2].map((i) => ({ index: i, position: i + 2, startDelayMs: 60_000 }));
    const h = loop.start(options({ ...sh, vus }));
    Atomics.store(sh.control, 2, 1);
    await new Promise((r) => setTimeout(r, 50));
    Atomics.store(sh.control, 0, 1); // CTRL_RUN = stop
    const took = await until(() => h.poll().live === 0, 2000);
    expect(took).toBeLessThan(1000);
    expect(Array.from(sh.states)).toEqual([3, 3, 3]);
    expect(h.results().every((r) => r.ok)).toBe(true);
    h.dispose();
  });

  it('dispose() aborts threads still waiting and joins them', () => {
    const sh = shared(1);
    const h = loop.start(options({ ...sh, vus: [{ index: 0, position: 2, startDelayMs: 0 }] }));
    const t0 = performance.now();
    h.dispose(); // GO never came: the thread is waiting for it
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(() => h.poll()).toThrow(/disposed/);
  });

  it('rejects shared arrays too small for the VU indexes', () => {
    const sh = shared(1);
    expect(() => loop.start(options({ ...sh, vus: [{ index: 5, position: 7, startDelayMs: 0 }] }))).toThrow(/outside/);
  });

  it("takes the job's session tag for its session names (letters and digits only, never SQL)", () => {
    const vus = [{ index: 0, position: 2, startDelayMs: 0 }];
    for (const bad of ['', 'ab cd', "x'; DROP", 'a'.repeat(17)]) expect(() => loop.start(options({ ...shared(1), vus, sessionTag: bad }))).toThrow(/sessionTag must be 1\.\.16 letters or digits/);
    loop.start(options({ ...shared(1), vus, sessionTag: 'ab12cd34' })).dispose();
  });
});
