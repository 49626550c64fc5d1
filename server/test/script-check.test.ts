import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptBuiltins, ScriptCheck } from '@sledge/protocol';
import { builtinScript } from '@sledge/sql';
import { get, makeApp, post, type SledgeApp } from './helpers.js';

/** The script editor's endpoints: pgbench's built-ins with their text, and a check of scripts with line and column (nothing stored). */
describe('script editor endpoints', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s?.app.close();
  });

  it("lists pgbench's built-in scripts with their text", async () => {
    const list = await get<ScriptBuiltins>(s, '/api/v1/scripts/builtins');
    expect(list.map((b) => b.name)).toEqual(['tpcb-like', 'simple-update', 'select-only']);
    for (const b of list) expect(b.text).toBe(builtinScript(b.name));
  });

  it('says where each script is wrong, by line and column, as a job would; good scripts count their commands', async () => {
    const r = await post(s, '/api/v1/scripts/validate', {
      scripts: [
        { name: 'good', text: '\\set id random(1, 10)\nSELECT :id;\n' },
        { name: 'bad', text: 'SELECT 1;\n\\set x abs(1))\n' },
        { text: '\\sleep\n' },
      ],
    });
    expect(r.status).toBe(200);
    const c = r.body as unknown as ScriptCheck;
    expect(c.ok).toBe(false);
    expect(c.scripts[0]).toEqual({ name: 'good', field: 'script.scripts[0].text', commands: 2 });
    expect(c.scripts[1]).toMatchObject({ name: 'bad', field: 'script.scripts[1].text', commands: 0, error: { line: 2, column: 14 } });
    expect(c.scripts[1]!.error!.text).toBe(`bad:2:14: ${c.scripts[1]!.error!.message}`);
    expect(c.scripts[2]).toMatchObject({ name: 'script3', error: { line: 1 } });
    // The same error a job's creation gives (SLEDGE_E_VALIDATION at the script's field).
    const job = await post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target: { engine: 'sqlite' }, script: { scripts: [{ name: 'bad', text: 'SELECT 1;\n\\set x abs(1))\n' }] } });
    expect(job.status).toBe(400);
    expect((job.body['error'] as { message: string }).message).toBe(c.scripts[1]!.error!.text);
  });

  it("with an engine, also says what that engine refuses (pipelines), at the script's line", async () => {
    const text = 'SELECT 1;\n\\startpipeline\nSELECT 2;\n\\endpipeline\n';
    const plain = await post(s, '/api/v1/scripts/validate', { scripts: [{ name: 'p', text }] });
    expect((plain.body as unknown as ScriptCheck).ok).toBe(true);
    const on = await post(s, '/api/v1/scripts/validate', { scripts: [{ name: 'p', text }], engine: 'sqlite' });
    const c = on.body as unknown as ScriptCheck;
    expect(c.ok).toBe(false);
    expect(c.scripts[0]!.error).toMatchObject({ line: 2 });
    expect(c.scripts[0]!.error!.message).toMatch(/pipeline/);
    // DuckDB runs scripts but has no protocol to pipeline: refused the same way, naming the engine.
    const duck = (await post(s, '/api/v1/scripts/validate', { scripts: [{ name: 'p', text }], engine: 'duckdb' })).body as unknown as ScriptCheck;
    expect(duck.ok).toBe(false);
    expect(duck.scripts[0]!.error).toMatchObject({ line: 2 });
    expect(duck.scripts[0]!.error!.text).toMatch(/^p:2: \\startpipeline: duckdb has no pipeline mode in its protocol/);
    // PostgreSQL runs pipelines (its protocol's pipeline mode)
    const pg = await post(s, '/api/v1/scripts/validate', { scripts: [{ name: 'p', text }], engine: 'postgresql' });
    expect((pg.body as unknown as ScriptCheck).ok).toBe(true);
  });

  it('refuses a body that is not a list of scripts with a typed 400 naming the field, an engine without scripts with a 424', async () => {
    const none = await post(s, '/api/v1/scripts/validate', { scripts: [] });
    expect(none.status).toBe(400);
    expect(none.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'scripts' });
    const bad = await post(s, '/api/v1/scripts/validate', { scripts: [{ name: 'x', text: 5 }] });
    expect(bad.status).toBe(400);
    expect(bad.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'scripts.0.text' });
    const engine = await post(s, '/api/v1/scripts/validate', { scripts: [{ text: 'SELECT 1;' }], engine: 'nosuch' });
    expect(engine.status).toBe(400);
    expect(engine.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'engine' });
    const mssql = await post(s, '/api/v1/scripts/validate', { scripts: [{ text: 'SELECT 1;' }], engine: 'mssql' });
    expect(mssql.status).toBe(424);
    expect(mssql.body['error']).toMatchObject({ code: 'SLEDGE_E_DRIVER_UNAVAILABLE', field: 'engine' });
  });
});
