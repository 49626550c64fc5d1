import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChbenchResult, Job } from '@sledge/protocol';
import { PACED, get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';

/**
 * CH-benCHmark through REST on SQLite, PostgreSQL and MariaDB: one schema per
 * engine (1 warehouse), built once and shared by the suite: build, check, a
 * run with 2 VUs and 0 analytic streams, a run with 2 VUs and 1 stream,
 * check again (the consistency checks hold after the mixed load), delete.
 * The transactional VUs of both runs are paced (PACED, helpers.ts), so the
 * baseline stays a baseline of the mixed run; the analytic stream is never
 * paced and runs its queries flat out.
 */
const sqliteFile = join(tmpdir(), `sledge-chbench-${process.pid}.sqlite`);
const TARGETS: Record<string, Record<string, unknown>> = {
  sqlite: { engine: 'sqlite', file: sqliteFile },
  postgresql: { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'sledge_ch_rest', password: 'ch-rest-pw', database: 'sledge_ch_rest', superuser: 'postgres', superuserPassword: 'postgres' },
  mariadb: { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'sledge_ch_rest' },
};
/** A short timed window: rampup 0.05 min, 0.25 min measured; the VUs paced (their load level is not what is asserted). */
const RUN = { vus: 2, rampup: 0.05, duration: 0.25, tcRefreshSec: 5, ...PACED };

for (const [engine, target] of Object.entries(TARGETS)) {
  describe(`CH-benCHmark on ${engine}`, () => {
    let s: SledgeApp;
    const runIds: string[] = [];
    const job = async (body: Record<string, unknown>): Promise<Job> => {
      const r = await post(s, '/api/v1/jobs', { workload: 'chbench', target, ...body });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return waitJob(s, String(r.body.id));
    };
    const output = async (j: Job) => (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${j.id}/output?limit=5000`)).lines.map((l) => l.text);

    beforeAll(async () => {
      s = await makeApp();
      await job({ type: 'delete' });
    }, 120_000);
    afterAll(async () => {
      if (s) {
        const del = await post(s, '/api/v1/jobs', { type: 'delete', workload: 'chbench', target });
        if (del.status === 201) await waitJob(s, String(del.body.id));
        await s.app.close();
      }
      if (engine === 'sqlite') for (const x of ['', '-wal', '-shm']) rmSync(sqliteFile + x, { force: true });
    });

    it('builds TPROC-C plus REGION, NATION and SUPPLIER, and checks', async () => {
      const b = await job({ type: 'build', tprocc: { warehouses: 1, buildVus: 1 } });
      expect(b.status, JSON.stringify(b.error)).toBe('completed');
      expect((await output(b)).join('\n')).toContain('CH-benCHmark tables loaded: 5 regions, 62 nations, 10000 suppliers');
      const c = await job({ type: 'check' });
      expect(c.status, JSON.stringify(c.error)).toBe('completed');
      const items = await get<{ name: string; ok: boolean }[]>(s, `/api/v1/jobs/${c.id}/check`).catch(() => null);
      if (items) expect(items.filter((i) => /REGION|NATION|SUPPLIER/.test(i.name)).every((i) => i.ok)).toBe(true);
    }, 300_000);

    it('refuses a second build on the same schema, naming the field', async () => {
      const r = await post(s, '/api/v1/jobs', { workload: 'chbench', target, type: 'build', tprocc: { warehouses: 1 } });
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).toContain('SLEDGE_E_SCHEMA_EXISTS');
      expect(JSON.stringify(r.body)).toMatch(/target\.(file|database)/);
    });

    it('runs 2 VUs with 0 analytic streams: the transactions-alone baseline', async () => {
      const j = await job({ type: 'run', tprocc: RUN, chbench: { analyticStreams: 0 } });
      expect(j.status, JSON.stringify(j.error)).toBe('completed');
      const r = j.result as ChbenchResult;
      expect(r.nopm).toBeGreaterThan(0);
      expect(r.analytic.streams).toBe(0);
      expect(r.analytic.queries).toHaveLength(0);
      runIds.push(j.id);
    }, 300_000);

    it('runs 2 VUs with 1 analytic stream: NOPM and the window\'s analytic queries', async () => {
      const j = await job({ type: 'run', tprocc: RUN, chbench: { analyticStreams: 1 } });
      expect(j.status, JSON.stringify(j.error)).toBe('completed');
      const r = j.result as ChbenchResult;
      expect(r.nopm).toBeGreaterThan(0);
      expect(r.analytic.streams).toBe(1);
      expect(r.analytic.queries.length).toBeGreaterThan(0);
      expect(r.analytic.queries.every((q) => q.stream === 1 && q.query >= 1 && q.query <= 22)).toBe(true);
      const inWindow = r.analytic.queries.filter((q) => q.inWindow && !q.error);
      expect(r.analytic.completedQueries).toBe(inWindow.length);
      expect(r.analytic.errors).toBe(0);
      expect(r.analytic.perQuery).toHaveLength(22);
      expect(r.analytic.perQuery.reduce((n, q) => n + q.count, 0)).toBe(r.analytic.completedQueries);
      if (r.analytic.completedQueries > 0) expect(r.analytic.queriesPerHour).toBeGreaterThan(0);
      const text = (await output(j)).join('\n');
      expect(text).toContain('Analytic streams: 1');
      expect(text).toMatch(/Executing Query \d+ \(1 of 22\)/);
      // The query metric frames stream beside the transaction counts.
      const m = await get<{ kind: string }[] | Record<string, unknown>>(s, `/api/v1/jobs/${j.id}/metrics?kind=chbench-query`).catch(() => null);
      if (Array.isArray(m)) expect(m.length).toBeGreaterThan(0);
      runIds.push(j.id);
    }, 300_000);

    it('reports the analytic streams in the job report and compares 0 with 1 stream', async () => {
      expect(runIds).toHaveLength(2);
      const page = (await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${runIds[1]}/report` })).body;
      expect(page).toContain('Analytic queries (measured window)');
      expect(page).toContain('analytic queries / hour');
      const cmp = await s.app.inject({ method: 'GET', url: `/api/v1/compare/report?jobs=${runIds.join(',')}` });
      expect(cmp.statusCode).toBe(200);
      expect(cmp.body).toContain('Transactions and analytic streams');
    });

    it('still passes checkschema after the mixed load', async () => {
      const c = await job({ type: 'check' });
      expect(c.status, JSON.stringify(c.error)).toBe('completed');
    }, 120_000);
  });
}
