import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Api = typeof import('../lib/index.js');

/** The built wrapper copied where no addon sits beside it (as fallback.test.ts does for TPROC-C). */
const pkg = fileURLToPath(new URL('..', import.meta.url));
const copy = join(pkg, 'node_modules', '.cache', `no-addon-tproch-${process.pid}`);
let api: Api;

beforeAll(async () => {
  mkdirSync(copy, { recursive: true });
  cpSync(join(pkg, 'dist'), join(copy, 'dist'), { recursive: true });
  api = (await import(pathToFileURL(join(copy, 'dist', 'index.js')).href)) as Api;
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('TPROC-H without the addon', () => {
  it("'auto' falls back to the TypeScript generator and says why", async () => {
    const g = await api.createTprochGenerator(0.01, 'pg-text', 'auto');
    expect(g.kind).toBe('typescript');
    expect(g.reason).toMatch(/no native addon/);
    // Validation is the TypeScript generator's (no pool needed for it).
    expect(() => g.generate({ kind: 'supplier', from: 5, to: 1 })).toThrow(/1\.\.100/);
  });

  it("'native' rejects with a typed error naming the reason", async () => {
    await expect(api.createTprochGenerator(1, 'csv', 'native')).rejects.toMatchObject({
      name: 'SledgeError',
      code: 'SLEDGE_E_DRIVER_UNAVAILABLE',
      field: 'generator',
    });
  });
});
