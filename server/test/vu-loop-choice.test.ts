import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadPgVuLoop } from '@sledge/worker-native';
import type { Target } from '@sledge/protocol';
import { loadDriver } from '../dist/engine/registry.js';
import { chooseVuLoop } from '../dist/workloads/tprocc/vu-loop-choice.js';

/** Which loop a run's VUs get, with the real drivers (no database needed). */
const pgTarget = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'u', password: 'secret-pw', database: 'd', superuser: 'postgres', superuserPassword: '', defaultDatabase: 'postgres', sslmode: 'prefer', tablespace: 'pg_default', storedProcs: false, partition: false, vacuum: false } as Target;
const sqliteTarget = { engine: 'sqlite', file: join(tmpdir(), 'x.db') } as unknown as Target;
const missing = join(tmpdir(), 'no-such-dir', 'sledge_pgvu.node');

describe('chooseVuLoop', () => {
  it("'typescript' never uses the native loop", async () => {
    const c = chooseVuLoop('typescript', await loadDriver('postgresql'), pgTarget, { asyncScale: false });
    expect(c).toEqual({ loop: 'typescript', reason: 'vuLoop is typescript', line: 'Virtual users run in JavaScript (vuLoop is typescript)' });
  });

  it('drivers without a native VU loop (tprocc nativeVu) run in TypeScript, even when native is asked for', async () => {
    const c = chooseVuLoop('native', await loadDriver('sqlite'), sqliteTarget, { asyncScale: false });
    expect(c.loop).toBe('typescript');
    expect(c.line).toBe('Virtual users run in JavaScript (the SQLite driver has no native VU loop)');
  });

  it('asynchronous scaling runs in the TypeScript loop', async () => {
    const c = chooseVuLoop('auto', await loadDriver('postgresql'), pgTarget, { asyncScale: true });
    expect(c.line).toBe('Virtual users run in JavaScript (asynchronous scaling runs in the TypeScript loop)');
  });

  it('step loads and arrival-rate mode run in the TypeScript loop, even when native is asked for', async () => {
    const pg = await loadDriver('postgresql');
    expect(chooseVuLoop('native', pg, pgTarget, { asyncScale: false, steps: [{ startAfterMin: 0, durationMin: 1, vus: 2 }] }).line).toBe('Virtual users run in JavaScript (step loads (tprocc.steps) run in the TypeScript loop)');
    expect(chooseVuLoop('auto', pg, pgTarget, { asyncScale: false, arrival: { rate: 10, maxSessions: 4 } }).line).toBe('Virtual users run in JavaScript (arrival-rate mode (tprocc.arrival) runs in the TypeScript loop)');
  });

  it('a connect pool (target.pool) runs in the TypeScript loop, even when native is asked for', async () => {
    const pooled = { ...pgTarget, pool: { connections: [{ name: 'a' }, { name: 'b', database: 'd2' }] } } as Target;
    const c = chooseVuLoop('native', await loadDriver('postgresql'), pooled, { asyncScale: false });
    expect(c).toMatchObject({ loop: 'typescript', line: 'Virtual users run in JavaScript (a connect pool (target.pool) runs in the TypeScript loop)' });
  });

  it("'auto' takes the native loop for PostgreSQL when the addon loads, else says why", async () => {
    const pg = await loadDriver('postgresql');
    if (loadPgVuLoop().available) expect(chooseVuLoop('auto', pg, pgTarget, { asyncScale: false })).toEqual({ loop: 'native', line: 'Virtual users run in the native libpq loop' });
    const c = chooseVuLoop('auto', pg, pgTarget, { asyncScale: false }, missing);
    expect(c.loop).toBe('typescript');
    expect(c.line).toContain(missing);
    expect(c.line).not.toContain('secret-pw');
  });

  it("'native' with the addon missing is a typed error naming vuLoop", async () => {
    const pg = await loadDriver('postgresql');
    expect(() => chooseVuLoop('native', pg, pgTarget, { asyncScale: false }, missing)).toThrow(expect.objectContaining({ code: 'SLEDGE_E_DRIVER_UNAVAILABLE', field: 'vuLoop' }));
  });
});
