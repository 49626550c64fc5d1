import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { expectTpmOverNopm, get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { quiet, quietTimeout } from '../../scripts/test-quiet.mjs';

/**
 * MariaDB through the REST API: build with 2 build VUs (LOAD DATA), check,
 * a timed run whose TPM/NOPM ratio is in HammerDB's range, check again,
 * the MySQL flavour's SQL on the same server, delete.
 */
describe('MariaDB end to end', () => {
  let s: SledgeApp;
  const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'sledge_srv_maria' };

  beforeAll(async () => {
    s = await makeApp();
    await waitJob(s, String((await post(s, '/api/v1/jobs', { type: 'delete', target })).body.id));
  });
  afterAll(async () => {
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    if (del.status === 201) await waitJob(s, String(del.body.id));
    await s.app.close();
  });

  it('builds 2 warehouses with 2 build VUs and passes checkschema', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 2, buildVus: 2 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const out = await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=5000`);
    // The MySQL family builds in table lanes balanced by rows (buildPlan 'rows'): both workers cover both warehouses.
    expect(out.lines.some((l) => l.vu === 2 && l.text === 'Loading 2 Warehouses start:1 end:2 (WAREHOUSE, STOCK, DISTRICT, CUSTOMER, HISTORY first)')).toBe(true);
    expect(out.lines.some((l) => l.vu === 3 && l.text === 'Loading 2 Warehouses start:1 end:2 (ORDERS, NEW_ORDER, ORDER_LINE first)')).toBe(true);
    // Every loader session sends LOAD DATA through the MariaDB C connector (.ci/run installs libmariadb-dev).
    const loaders = out.lines.filter((l) => l.text.startsWith('MariaDB loader:')).map((l) => l.text);
    expect(loaders.length).toBeGreaterThanOrEqual(2);
    expect(new Set(loaders)).toEqual(new Set(['MariaDB loader: LOAD DATA LOCAL INFILE (MariaDB C connector)']));
    const c = await post(s, '/api/v1/jobs', { type: 'check', target });
    expect((await waitJob(s, String(c.body.id))).status).toBe('completed');
  });

  it('runs 2 VUs timed: NOPM > 0, TPM/NOPM between 1.5 and 3.5, MariaDB TPM; still consistent', () =>
    quiet(async () => {
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0.1, duration: 0.5, tcRefreshSec: 5 } });
      const job: Job = await waitJob(s, String(r.body.id));
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const res = job.result!;
      expect(res.line).toBe(`TEST RESULT : System achieved ${res.nopm} NOPM from ${res.tpm} MariaDB TPM`);
      expect(res.nopm).toBeGreaterThan(0);
      expectTpmOverNopm(res, 1.5);
      const ash = await get<{ status: { sampler?: string; ok: boolean; source?: string }[]; topEvents: { waitClass: string }[] }>(s, `/api/v1/jobs/${job.id}/ash`);
      expect(ash.status.find((x) => x.sampler === 'ash')?.ok).toBe(true);
      expect(ash.topEvents.length).toBeGreaterThan(0);
      const c = await post(s, '/api/v1/jobs', { type: 'check', target });
      expect((await waitJob(s, String(c.body.id))).status).toBe('completed');
    }, 'db'), quietTimeout(300_000));

  it('drives the same schema with the MySQL flavour (engine mysql on the MariaDB server)', async () => {
    const mysql = { ...target, engine: 'mysql' };
    const r = await post(s, '/api/v1/jobs', { type: 'run', target: mysql, tprocc: { vus: 2, rampup: 0, duration: 0.05 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(job.result!.line).toMatch(/^TEST RESULT : System achieved \d+ NOPM from \d+ MySQL TPM$/);
  });
});
