import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { Target } from '@sledge/protocol';
import type { ScriptRunOptions } from '@sledge/core';
import { loadDriver } from '../dist/engine/registry.js';
import { chooseScriptLoop, scriptThreads } from '../dist/workloads/script/loop-choice.js';

/** Which loop a script run's VUs get, with the real drivers (no database needed). */
const pgTarget = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'u', password: 'secret-pw', database: 'd', superuser: 'postgres', superuserPassword: '', defaultDatabase: 'postgres', sslmode: 'prefer', tablespace: 'pg_default', storedProcs: false, partition: false, vacuum: false, prepared: true } as Target;
const sqliteTarget = { engine: 'sqlite', file: join(tmpdir(), 'x.db') } as unknown as Target;
const missing = join(tmpdir(), 'no-such-dir', 'sledge_pgvu.node');
const TPCB = '\\set aid random(1, 100000 * :scale)\nBEGIN;\nUPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\nEND;\n';
const opts = (scripts: { name: string; text: string }[], more: Partial<ScriptRunOptions> = {}): ScriptRunOptions => ({ scripts: scripts.map((s) => ({ ...s, weight: 1 })), vus: 2, rampup: 0, duration: 1, scale: 1, workers: 0, ...more });

describe('chooseScriptLoop', () => {
  it('takes the native libpq loop on PostgreSQL for scripts of \\set, \\if and SQL', async () => {
    const c = chooseScriptLoop('auto', await loadDriver('postgresql'), pgTarget, opts([{ name: 'tpcb', text: TPCB }]));
    expect(c).toEqual({ loop: 'native', line: "Virtual users run in the native libpq loop (the worker thread evaluates each VU's scripts ahead)" });
  });

  it('stays in JavaScript, saying why: vuLoop typescript, an engine without the loop, a script that reads or waits, a run shape, -M extended', async () => {
    const pg = await loadDriver('postgresql');
    const tpcb = opts([{ name: 'tpcb', text: TPCB }]);
    expect(chooseScriptLoop('typescript', pg, pgTarget, tpcb).line).toBe('Virtual users run in JavaScript (vuLoop is typescript)');
    expect(chooseScriptLoop('native', await loadDriver('sqlite'), sqliteTarget, tpcb).line).toBe('Virtual users run in JavaScript (the SQLite driver has no native script loop)');
    expect(chooseScriptLoop('native', pg, pgTarget, opts([{ name: 'tpcb', text: TPCB }, { name: 'nap', text: 'SELECT 1;\n\\sleep 5 ms\n' }])).line).toBe(
      'Virtual users run in JavaScript (nap:2: \\sleep: a script that reads the database into variables, sleeps or pipelines runs in JavaScript)',
    );
    expect(chooseScriptLoop('auto', pg, pgTarget, opts([{ name: 'tpcb', text: TPCB }], { steps: [{ startAfterMin: 0, durationMin: 1, vus: 2 }] })).line).toBe('Virtual users run in JavaScript (step loads (script.steps) run in the JavaScript loop)');
    expect(chooseScriptLoop('auto', pg, pgTarget, opts([{ name: 'tpcb', text: TPCB }], { arrival: { rate: 10, maxSessions: 4 } } as Partial<ScriptRunOptions>)).line).toBe(
      'Virtual users run in JavaScript (arrival-rate mode (script.arrival) runs in the JavaScript loop)',
    );
    expect(chooseScriptLoop('auto', pg, { ...pgTarget, prepared: false } as Target, tpcb).line).toBe(
      'Virtual users run in JavaScript (target.prepared is off (the native loop runs named prepared statements; -M extended runs in JavaScript))',
    );
  });

  it("gives the native loop one thread per core by default (script.threads, pgbench's -j), never more than the worker's VUs", () => {
    expect(scriptThreads(undefined, 4, 2)).toBe(2);
    expect(scriptThreads(0, 4, 2)).toBe(2);
    expect(scriptThreads(3, 4, 2)).toBe(3);
    expect(scriptThreads(8, 4, 2)).toBe(4);
    expect(scriptThreads(0, 1, 8)).toBe(1);
  });

  it('falls back to JavaScript with the reason when the addon is missing, and refuses the run when native is required', async () => {
    const pg = await loadDriver('postgresql');
    const tpcb = opts([{ name: 'tpcb', text: TPCB }]);
    const c = chooseScriptLoop('auto', pg, pgTarget, tpcb, missing);
    expect(c.loop).toBe('typescript');
    expect(c.line).toContain(missing);
    expect(() => chooseScriptLoop('native', pg, pgTarget, tpcb, missing)).toThrow(/the native VU loop is not available: .*or set vuLoop \(SLEDGE_VU_LOOP\) to auto/);
  });
});
