import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type SledgeApp } from '../dist/app.js';

/**
 * The server and `sledge --local` load server/dist/app.bundle.js (scripts/bundle-process.mjs), the
 * tests tsc's server/dist/app.js: the bundle must serve the same. What bundling could break is
 * what a file finds from its own location (import.meta.url, a CommonJS file's __dirname), and code
 * that leaves the process as text (the docs page's request interceptor).
 */
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/**
 * GET each URL of an app built by `module` (with the docs and `uiDir`), in a node process of its
 * own: the bundle as Node loads it (vitest would transform 2 MB of it first).
 */
function serve(module: string, uiDir: string, urls: string[]): { status: number; type: unknown; body: string }[] {
  const script = `
    const { buildApp } = await import(${JSON.stringify(new URL(module, import.meta.url).href)});
    const { app } = await buildApp({ dataDir: ${JSON.stringify(mkdtempSync(join(tmpdir(), 'sledge-bundle-')))}, logger: false, uiDir: ${JSON.stringify(uiDir)} });
    const out = [];
    for (const url of ${JSON.stringify(urls)}) {
      const r = await app.inject({ method: 'GET', url });
      out.push({ status: r.statusCode, type: r.headers['content-type'], body: r.body });
    }
    await app.close();
    process.stdout.write(JSON.stringify(out));`;
  const p = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (p.status !== 0) throw new Error(`${module}: exit ${p.status}: ${p.stderr}`);
  return JSON.parse(p.stdout) as { status: number; type: unknown; body: string }[];
}

describe('the server bundle (dist/app.bundle.js) against tsc files (dist/app.js)', () => {
  // /docs/json: every route's schema, and the version from package.json (found from version.js's URL).
  // /docs/static/*: @fastify/swagger-ui's folder, found from its __dirname.
  const urls = ['/docs/json', '/docs/yaml', '/docs/', '/docs/static/logo.svg', '/docs/static/swagger-ui.css', '/docs/static/swagger-initializer.js', '/', '/compare', '/api/v1/health', '/api/v1/nope'];
  let got: Record<'files' | 'bundle', ReturnType<typeof serve>>;
  beforeAll(() => {
    const uiDir = mkdtempSync(join(tmpdir(), 'sledge-bundle-ui-'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Sledge dashboard</title>');
    got = { files: serve('../dist/app.js', uiDir, urls), bundle: serve('../dist/app.bundle.js', uiDir, urls) };
  });

  it('serves the same OpenAPI document, docs files, dashboard and version', () => {
    urls.forEach((url, i) => {
      // The docs page carries the interceptor's text, which esbuild prints its own way: next test.
      if (url !== '/docs/static/swagger-initializer.js') expect(got.bundle[i], url).toEqual(got.files[i]);
    });
    expect(JSON.parse(got.bundle[0]!.body).info.version).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });

  it("serves a docs page whose request interceptor stands alone (esbuild's helpers are not in the page)", () => {
    for (const name of ['files', 'bundle'] as const) {
      const page = got[name][urls.indexOf('/docs/static/swagger-initializer.js')]!;
      expect(page.status).toBe(200);
      // The function's text, as @fastify/swagger-ui put it in the page: from its name to the brace that closes it.
      const at = page.body.indexOf('function docsRequestInterceptor');
      expect(at, name).toBeGreaterThan(0);
      let depth = 0;
      let end = page.body.indexOf('{', at);
      for (; end < page.body.length; end++) {
        if (page.body[end] === '{') depth++;
        else if (page.body[end] === '}' && --depth === 0) break;
      }
      const source = page.body.slice(at, end + 1);
      const localStorage = { getItem: (k: string) => (k === 'sledge.token' ? 'the-token' : null) };
      const run = (req: object) => runInNewContext(`(${source})(req)`, { globalThis: { localStorage }, req }) as { headers: Record<string, string> };
      expect(run({}).headers, name).toEqual({ Authorization: 'Bearer the-token' });
      expect(run({ headers: { authorization: 'Bearer mine' } }).headers, name).toEqual({ authorization: 'Bearer mine' });
    }
  });

  it('names no absolute path of this checkout (the build moves into the image as it is)', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const bundles = readdirSync(DIST).filter((f) => /^(main|app\.bundle|replica\.bundle|chunk-[A-Z0-9]+)\.js$/.test(f));
    expect(bundles).toEqual(expect.arrayContaining(['main.js', 'app.bundle.js', 'replica.bundle.js']));
    for (const f of bundles) expect(readFileSync(join(DIST, f), 'utf8').includes(root), f).toBe(false);
  });
});

describe('an app without docs (docs: false, as `sledge --local` builds it)', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-nodocs-')), logger: false, uiDir: null, docs: false });
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('answers the API and has no /docs', async () => {
    expect((await s.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    expect((await s.app.inject({ method: 'GET', url: '/api/v1/jobs' })).statusCode).toBe(200);
    for (const url of ['/docs', '/docs/json', '/docs/static/index.html']) expect((await s.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
  });
});
