import { expect } from 'vitest';
import type { SledgeApp } from './helpers.js';

/**
 * Calls to the HammerDB-compatible command API (routes/hammerdb) as HammerDB's
 * own Tcl scripts make them, and HammerDB's reading of the replies: shared by
 * hammerdb.test.ts, hammerdb-datagen.test.ts and hammerdb-postgresql.test.ts.
 */

export type Json = string | Json[] | { [k: string]: Json };

/** Every JSON leaf is a string, as huddle writes them. */
export function expectAllStrings(v: Json, path = '$'): void {
  if (Array.isArray(v)) v.forEach((x, i) => expectAllStrings(x, `${path}[${i}]`));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) expectAllStrings(x, `${path}.${k}`);
  else expect(typeof v, `${path} is ${JSON.stringify(v)}`).toBe('string');
}

/** One HammerDB call: Tcl scripts post brace-less JSON with a form content type. */
export async function hdb(s: SledgeApp, method: 'GET' | 'POST', url: string, body?: string, headers: Record<string, string> = {}): Promise<Json> {
  const r = await s.app.inject({
    method,
    url,
    ...(body !== undefined ? { payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } } : { headers }),
  });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const json = JSON.parse(r.body) as Json;
  expectAllStrings(json);
  return json;
}

export const ok = (message: string) => ({ success: { message } });
export const err = (message: string) => ({ error: { message } });
export const message = (j: Json) => ((j as { success?: { message: string }; error?: { message: string } }).success ?? (j as { error: { message: string } }).error).message;
export const jobIdOf = (j: Json) => {
  const m = /JOBID=([0-9A-F]{24})$/.exec(message(j));
  if (!m) throw new Error(`no JOBID in ${JSON.stringify(j)}`);
  return m[1]!;
};

/** HammerDB's SUCCESS rule: every VU that reported RUNNING finished with SUCCESS, and all completed. */
export function expectSucceeded(lines: string[]): void {
  expect(lines).toContain('ALL VIRTUAL USERS COMPLETE');
  expect(lines.filter((l) => l.endsWith(':FINISHED FAILED'))).toEqual([]);
  expect(lines.filter((l) => l.endsWith(':FINISHED SUCCESS')).length).toBe(lines.filter((l) => l.endsWith(':RUNNING')).length);
}

/** Poll jobs?jobid=ID&status until the status stream says every VU completed. */
export async function waitComplete(s: SledgeApp, id: string, timeoutMs = 240_000): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const flat = (await hdb(s, 'GET', `/jobs?jobid=${id}&status`)) as string[];
    const lines = flat.filter((_, i) => i % 2 === 1);
    if (lines.includes('ALL VIRTUAL USERS COMPLETE')) return lines;
    if (Date.now() > end) throw new Error(`job ${id} not complete: ${JSON.stringify(lines)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
