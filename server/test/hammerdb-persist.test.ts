import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../dist/app.js';
import { makeApp, type SledgeApp } from './helpers.js';

/** The HammerDB session survives a restart on the same data directory, its passwords encrypted at rest. */

type Json = string | Json[] | { [k: string]: Json };
async function hdb(s: SledgeApp, method: 'GET' | 'POST', url: string, body?: string): Promise<Json> {
  const r = await s.app.inject({ method, url, ...(body !== undefined ? { payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}) });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBe(200);
  return JSON.parse(r.body) as Json;
}
const body = (o: Record<string, string>) => JSON.stringify(o);
const PRINTS = ['db', 'bm', 'dict', 'generic', 'script', 'vuconf', 'datagen', 'tcconf'];

describe('HammerDB session across a restart', () => {
  it('prints the same settings after the app restarts on the same data directory', async () => {
    const first = await makeApp();
    const set: [string, Record<string, string>][] = [
      ['/dbset', { db: 'pg' }],
      ['/diset', { dict: 'connection', key: 'pg_host', value: 'db7.example' }],
      ['/diset', { dict: 'tpcc', key: 'pg_pass', value: 'Persist-Secret-9' }],
      ['/diset', { dict: 'tpcc', key: 'pg_count_ware', value: '12' }],
      ['/dbset', { bm: 'TPC-H' }],
      ['/diset', { dict: 'tpch', key: 'pg_scale_fact', value: '10' }],
      ['/dbset', { bm: 'TPC-C' }],
      ['/vuset', { vu: '6' }],
      ['/vuset', { delay: '20' }],
      ['/tcset', { refreshrate: '4' }],
      ['/dgset', { warehouse: '3' }],
      ['/metset', { agent_hostname: 'db7' }],
      ['/giset', { dict: 'commandline', key: 'keepalive_margin', value: '15' }],
      ['/custommonitor', { type: 'test' }],
    ];
    for (const [url, b] of set) expect(Object.keys((await hdb(first, 'POST', url, body(b))) as object), `${url} ${JSON.stringify(b)}`).toEqual(['success']);
    expect(await hdb(first, 'POST', '/loadscript', '')).toEqual({ success: { message: 'script loaded' } });
    // jobs profileid (HammerDB persists it) and jobs format (JSON by default; text kept).
    expect(await hdb(first, 'POST', '/jobscmd', '{"args":["profileid","7"]}')).toMatchObject({ output: ['Setting performance profile id to 7'] });
    expect(((await hdb(first, 'GET', '/print?generic')) as Record<string, Record<string, string>>)['commandline']!['jobsoutput']).toBe('JSON');
    expect(await hdb(first, 'POST', '/jobscmd', '{"args":["format","text"]}')).toMatchObject({ output: ['Setting jobs output format to text'] });
    const before = Object.fromEntries(await Promise.all(PRINTS.map(async (p) => [p, await hdb(first, 'GET', `/print?${p}`)] as const)));
    expect(before['dict']).toMatchObject({ connection: { pg_host: 'db7.example' }, tpcc: { pg_count_ware: '12', pg_pass: '********' } });
    await first.app.close();

    // The store holds no password in clear.
    for (const f of readdirSync(first.dataDir).filter((x) => x.startsWith('sledge.db'))) expect(readFileSync(join(first.dataDir, f)).includes('Persist-Secret-9'), f).toBe(false);

    const again = { ...(await buildApp({ dataDir: first.dataDir, logger: false, uiDir: null })), dataDir: first.dataDir };
    try {
      for (const p of PRINTS) expect(await hdb(again, 'GET', `/print?${p}`), p).toEqual(before[p]);
      // The password came back (decrypted) into the dict the jobs use.
      expect(again.engine && (again as unknown as { store: { loadHammerdbSession(): { secrets: Record<string, string> } } }).store.loadHammerdbSession().secrets['pg.tpcc.pg_pass']).toBe('Persist-Secret-9');
      expect(await hdb(again, 'POST', '/jobscmd', '{"args":["profileid"]}')).toMatchObject({ output: ['Performance profile id set to 7'] });
      expect(((await hdb(again, 'GET', '/print?generic')) as Record<string, Record<string, string>>)['commandline']!['jobsoutput']).toBe('text');
      expect(await hdb(again, 'POST', '/jobscmd', '{"args":["format","JSON"]}')).toMatchObject({ output: ['Setting jobs output format to JSON'] });
      expect(((await hdb(again, 'GET', '/print?generic')) as Record<string, Record<string, string>>)['metrics']).toEqual({ agent_hostname: 'db7', agent_id: '10000' });
    } finally {
      await again.app.close();
    }
  });
});
