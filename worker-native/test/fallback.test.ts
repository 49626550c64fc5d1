import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TproccGenerator } from '@sledge/core';
import type { SledgeError } from '@sledge/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Api = typeof import('../lib/index.js');

/**
 * The built wrapper copied where no addon sits beside it (no prebuilds/, no
 * build/Release/), as on a machine without a compiler. It stays under this
 * package's node_modules so '@sledge/core' still resolves.
 */
const pkg = fileURLToPath(new URL('..', import.meta.url));
const copy = join(pkg, 'node_modules', '.cache', `no-addon-${process.pid}`);
let api: Api;

beforeAll(async () => {
  mkdirSync(copy, { recursive: true });
  cpSync(join(pkg, 'dist'), join(copy, 'dist'), { recursive: true });
  api = (await import(pathToFileURL(join(copy, 'dist', 'index.js')).href)) as Api;
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('without the addon', () => {
  const ctx = { seed: 99, timestamp: '2026-11-22 00:00:00' };

  it('loadNativeGenerator says why it is unavailable and how to build it', () => {
    const r = api.loadNativeGenerator();
    expect(r.available).toBe(false);
    if (!r.available) {
      expect(r.reason).toContain(join(copy, 'build', 'Release', 'sledge_native.node'));
      expect(r.reason).toContain('build:native');
    }
  });

  it("'auto' falls back to the TypeScript generator with the same output", () => {
    const g = api.createGenerator(ctx, 'pg-text', 'auto');
    expect(g.kind).toBe('typescript');
    expect(g.reason).toMatch(/no native addon/);
    const unit = { kind: 'orders', w: 1, d: 2 } as const;
    expect(g.generate(unit)).toEqual(new TproccGenerator(ctx, 'pg-text').generate(unit));
  });

  it("'native' throws a typed error naming the reason", () => {
    let err: unknown;
    try {
      api.createGenerator(ctx, 'csv', 'native');
    } catch (e) {
      err = e;
    }
    // The copy loads its own @sledge/protocol instance, so compare by shape, not instanceof.
    expect(err).toMatchObject({ name: 'SledgeError', code: 'SLEDGE_E_DRIVER_UNAVAILABLE', field: 'generator' });
    expect((err as SledgeError).message).toMatch(/native row generator is not available: no native addon/);
  });
});
