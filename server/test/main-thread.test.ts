import { describe, expect, it } from 'vitest';
import type { Driver } from '@sledge/core';
import { driver as duckdb } from '@sledge/driver-duckdb';
import { parseJobCreate } from '@sledge/protocol';
import { checkMainThreadRun } from '../src/runner/main-thread.js';

/** Runs of an engine whose sessions stay on the main thread (DuckDB's features.mainThreadSessions): what is refused before the job is stored. */
describe('checkMainThreadRun', () => {
  const d = duckdb as unknown as Driver;
  const run = (script: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    parseJobCreate({ type: 'run', workload: 'script', target: { engine: 'duckdb', file: 'p.duckdb' }, script: { scripts: [{ builtin: 'select-only' }], ...script }, ...extra }, 1);

  it('takes automatic or one worker thread, and builds and checks of any kind', () => {
    expect(() => checkMainThreadRun(run({ workers: 0 }), d)).not.toThrow();
    expect(() => checkMainThreadRun(run({ workers: 1 }), d)).not.toThrow();
    expect(() => checkMainThreadRun(parseJobCreate({ type: 'build', workload: 'script', target: { engine: 'duckdb' }, script: { scale: 1 } }, 1), d)).not.toThrow();
  });

  it('refuses worker threads and replicas, naming the field and what to set', () => {
    expect(() => checkMainThreadRun(run({ workers: 2 }), d)).toThrow(expect.objectContaining({ code: 'SLEDGE_E_VALIDATION', field: 'script.workers' }));
    expect(() => checkMainThreadRun(run({ workers: 2 }), d)).toThrow(/set script\.workers to 0/);
    expect(() => checkMainThreadRun(run({}, { placement: { on: 'replicas' } }), d)).toThrow(expect.objectContaining({ code: 'SLEDGE_E_VALIDATION', field: 'placement' }));
    expect(() => checkMainThreadRun(run({}, { placement: { on: 'replicas' } }), d)).toThrow(/set placement\.on to "local"/);
  });
});
