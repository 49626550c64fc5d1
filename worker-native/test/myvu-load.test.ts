import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIX, TX_TYPES } from '@sledge/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMyVuLoop, myVuCandidatePaths, type MyVuStartOptions } from '../lib/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'sledge-myvu-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('loading the native MariaDB/MySQL VU loop', () => {
  it('looks for a prebuild first, then build/Release/sledge_myvu.node', () => {
    const p = myVuCandidatePaths();
    expect(p[0]).toMatch(new RegExp(`prebuilds[\\\\/]${process.platform}-${process.arch}[\\\\/]sledge_myvu\\.node$`));
    expect(p[1]).toMatch(/build[\\/]Release[\\/]sledge_myvu\.node$/);
  });

  it('loads the built target once per thread and reports the connector version', () => {
    const a = loadMyVuLoop();
    expect(a.available, a.available ? '' : a.reason).toBe(true);
    expect(loadMyVuLoop()).toBe(a);
    if (a.available) expect(a.clientVersion).toBeGreaterThanOrEqual(30000);
  });

  it('says what is missing and how to build it when the file is not there', () => {
    const missing = join(tmp, 'sledge_myvu.node');
    const r = loadMyVuLoop({ path: missing });
    expect(r.available).toBe(false);
    if (!r.available) {
      expect(r.reason).toContain(missing);
      expect(r.reason).toMatch(/libmariadb-dev/);
    }
  });

  it('refuses the PostgreSQL loop in its place (another ABI or another addon)', () => {
    const r = loadMyVuLoop({ path: myVuCandidatePaths()[1]!.replace('sledge_myvu', 'sledge_native') });
    expect(r.available).toBe(false);
    if (!r.available) expect(r.reason).toMatch(/not the Sledge VU loop/);
  });
});

function shared(vus: number) {
  return {
    counters: new Int32Array(new SharedArrayBuffer(vus * TX_TYPES.length * 3 * 4)),
    states: new Int32Array(new SharedArrayBuffer(vus * 4)),
    control: new Int32Array(new SharedArrayBuffer(4 * 4)),
  };
}

function options(port: number, over: Partial<MyVuStartOptions> & Pick<MyVuStartOptions, 'counters' | 'states' | 'control' | 'vus'>): MyVuStartOptions {
  const stmt = Object.fromEntries(TX_TYPES.map((t) => [t, 'CALL x(?)'])) as Record<(typeof TX_TYPES)[number], string>;
  return {
    spec: { kind: 'libmariadb', host: '127.0.0.1', port, socket: '', user: 'nobody', password: 'secret-pw', database: 'none', statements: stmt },
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

describe('native MariaDB/MySQL VU threads', () => {
  const loop = loadMyVuLoop();
  if (!loop.available) throw new Error(loop.reason);

  it('fail a VU that cannot connect, with the reason in its log (never the password) and state failed', async () => {
    const sh = shared(1);
    const h = loop.start(options(1, { ...sh, vus: [{ index: 0, position: 2, startDelayMs: 0 }] }));
    Atomics.store(sh.control, 2, 1); // CTRL_GO
    const logs: { vu: number; text: string }[] = [];
    await until(() => {
      const p = h.poll();
      logs.push(...p.logs);
      return p.live === 0;
    }, 8000);
    expect(logs[0]).toEqual({ vu: 0, text: 'Vuser 2:RUNNING' });
    expect(logs[1]!.text).toMatch(/^Error in Virtual User 2: connecting to MariaDB\/MySQL failed: .*(refused|connect)/i);
    expect(JSON.stringify(logs)).not.toContain('secret-pw');
    expect(logs[2]).toEqual({ vu: 0, text: 'Vuser 2:FINISHED FAILED' });
    expect(Atomics.load(sh.states, 0)).toBe(4);
    expect(h.results()).toEqual([{ ok: false, elapsedMs: 0, totalNs: [0, 0, 0, 0, 0] }]);
    h.dispose();
  });

  it('give up a connect the server never answers within a second of a stop, as finished', async () => {
    // A server that accepts and never sends its greeting: the connector waits for it.
    const sockets: Socket[] = [];
    const server: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const sh = shared(2);
      const h = loop.start(options(port, { ...sh, vus: [0, 1].map((i) => ({ index: i, position: i + 2, startDelayMs: 0 })) }));
      Atomics.store(sh.control, 2, 1);
      await until(() => sockets.length === 2, 3000);
      await new Promise((r) => setTimeout(r, 200));
      expect(h.poll().live).toBe(2);
      Atomics.store(sh.control, 0, 1); // CTRL_RUN = stop
      const took = await until(() => h.poll().live === 0, 3000);
      expect(took).toBeLessThan(1000);
      expect(Array.from(sh.states)).toEqual([3, 3]);
      expect(h.results().every((r) => r.ok)).toBe(true);
      h.dispose();
    } finally {
      for (const s of sockets) s.destroy();
      server.close();
    }
  });

  it('refuses a libpq spec', () => {
    const sh = shared(1);
    const o = options(1, { ...sh, vus: [{ index: 0, position: 2, startDelayMs: 0 }] });
    expect(() => loop.start({ ...o, spec: { kind: 'libpq', conninfo: '', statements: o.spec.statements, rollbackSqlstate: '' } })).toThrow(/speaks libmariadb/);
  });
});
