import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type SledgeApp } from './helpers.js';

/** The OpenAPI document names its component schemas after the protocol's $ids, not def-0, def-1... */
describe('GET /docs/json component names', () => {
  let s: SledgeApp;
  let doc: { components: { schemas: Record<string, { title?: string }> }; paths: Record<string, unknown> };
  beforeAll(async () => {
    s = await makeApp();
    const r = await s.app.inject({ method: 'GET', url: '/docs/json' });
    expect(r.statusCode).toBe(200);
    doc = JSON.parse(r.body) as typeof doc;
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('has no def-N component and has the named ones', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((n) => /^def-\d+$/.test(n))).toEqual([]);
    for (const n of ['Job', 'JobCreate', 'ErrorBody', 'ErrorInfo', 'FieldError', 'SavedConfig']) expect(names, n).toContain(n);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('refers to the components by those names, and every reference resolves', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/#\/components\/schemas\/def-\d+/);
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs).toContain('Job');
    expect(refs).toContain('ErrorBody');
    for (const r of new Set(refs)) expect(doc.components.schemas, r).toHaveProperty([r]);
    // A whole response or body is a plain reference to its named component.
    const configById = doc.paths['/api/v1/configs/{id}'] as { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } };
    expect(configById.get.responses['404']!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(configById.get.responses['200']!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/SavedConfig' });
  });
});
