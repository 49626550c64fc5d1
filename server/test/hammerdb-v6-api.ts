import type { SledgeApp } from './helpers.js';

/** The v6 job forms' calls (hammerdb-v6.test.ts, hammerdb-v6-postgresql.test.ts): a raw reply, its JSON, the CLI `jobs` verb. */

export type Reply = { output: string[]; value: string };

export async function hdb(s: SledgeApp, method: 'GET' | 'POST', url: string, body?: string, headers: Record<string, string> = {}) {
  const r = await s.app.inject({ method, url, ...(body !== undefined ? { payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } } : { headers }) });
  return { status: r.statusCode, headers: r.headers, body: r.body, json: () => JSON.parse(r.body) as unknown };
}
export const get = async (s: SledgeApp, url: string) => (await hdb(s, 'GET', url)).json();
export const jobs = async (s: SledgeApp, ...args: string[]) => (await hdb(s, 'POST', '/jobscmd', JSON.stringify({ args }))).json() as Promise<Reply>;

/** Poll the v4 status form until every VU completed. */
export async function waitComplete(s: SledgeApp, id: string): Promise<void> {
  for (const end = Date.now() + 240_000; Date.now() < end; await new Promise((r) => setTimeout(r, 250))) {
    const flat = (await get(s, `/jobs?jobid=${id}&status`)) as string[];
    if (flat.includes('ALL VIRTUAL USERS COMPLETE')) return;
  }
  throw new Error(`job ${id} did not complete`);
}
