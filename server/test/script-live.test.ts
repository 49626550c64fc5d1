import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, ScriptResult, VuStatus } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { get, makeApp, post, runJob, type SledgeApp } from './helpers.js';

/**
 * The script workload through REST on PostgreSQL and MariaDB, one pgbench
 * schema per engine shared by the file: pgbench's init at scale 1 (the
 * database must exist, as for pgbench -i: created here), tpcb-like with 2
 * VUs, pgbench's invariant after it (the check job, and the sums read here
 * through the engine's own client); on PostgreSQL pipelines (one implicit
 * transaction per pipeline, as pgbench's on the same script; pgbench 17's
 * \syncpipeline splitting one), on MariaDB a pipelined script refused before
 * anything is stored.
 */
const DB = 'script_workload_live';
/** A script of our own using every meta-command the engines run. */
const OWN = readFileSync(new URL('./fixtures/script/own.sql', import.meta.url), 'utf8');
const pgReq = createRequire(createRequire(import.meta.url).resolve('@sledge/driver-postgresql'));
const myReq = createRequire(createRequire(import.meta.url).resolve('@sledge/driver-mysql'));

interface Engine {
  target: Record<string, unknown>;
  /** Create the database if missing (pgbench -i needs it), or drop it. */
  admin(sql: 'create' | 'drop'): Promise<void>;
  /** One row of a query on the target database. */
  row(sql: string): Promise<Record<string, unknown>>;
}

const ENGINES: Record<string, Engine> = {
  postgresql: {
    target: { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'postgres', password: '', database: DB },
    async admin(what) {
      const { Client } = pgReq('pg') as typeof import('pg');
      const c = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
      await c.connect();
      try {
        const exists = (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB])).rowCount! > 0;
        if (what === 'create' && !exists) await c.query(`CREATE DATABASE ${DB}`);
        if (what === 'drop' && exists) await c.query(`DROP DATABASE ${DB} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
    async row(sql) {
      const { Client } = pgReq('pg') as typeof import('pg');
      const c = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: DB });
      await c.connect();
      try {
        return (await c.query(sql)).rows[0] as Record<string, unknown>;
      } finally {
        await c.end();
      }
    },
  },
  mariadb: {
    target: { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: DB },
    async admin(what) {
      const mysql = myReq('mysql2/promise') as typeof import('mysql2/promise');
      const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
      try {
        await c.query(what === 'create' ? `CREATE DATABASE IF NOT EXISTS ${DB}` : `DROP DATABASE IF EXISTS ${DB}`);
      } finally {
        await c.end();
      }
    },
    async row(sql) {
      const mysql = myReq('mysql2/promise') as typeof import('mysql2/promise');
      const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database: DB });
      try {
        const [rows] = await c.query(sql);
        return (rows as Record<string, unknown>[])[0]!;
      } finally {
        await c.end();
      }
    },
  },
};

for (const [engine, e] of Object.entries(ENGINES)) {
  describe(`script workload on ${engine}`, () => {
    let s: SledgeApp;
    const job = (body: Record<string, unknown>): Promise<Job> => runJob(s, { workload: 'script', target: e.target, ...body }, 180_000);

    beforeAll(async () => {
      await e.admin('create');
      s = await makeApp();
    }, 120_000);
    afterAll(async () => {
      await s?.app.close();
      await e.admin('drop');
    }, 120_000);

    it("builds pgbench's tables at scale 1", async () => {
      const b = await job({ type: 'build', script: { scale: 1 } });
      expect(b.status, JSON.stringify(b.error)).toBe('completed');
      const counts = await e.row('SELECT (SELECT count(*) FROM pgbench_branches) AS b, (SELECT count(*) FROM pgbench_tellers) AS t, (SELECT count(*) FROM pgbench_accounts) AS a, (SELECT count(*) FROM pgbench_history) AS h');
      expect(Object.values(counts).map(Number)).toEqual([1, 10, 100000, 0]);
    });

    it('runs tpcb-like, select-only and a script using every meta-command with 2 VUs; the invariant holds after it', async () => {
      const r = await job({ type: 'run', script: { scripts: [{ builtin: 'tpcb-like' }, { builtin: 'select-only', weight: 2 }, { name: 'own', text: OWN }], vus: 2, rampup: 0, duration: 0.08 } });
      expect(r.status, JSON.stringify(r.error)).toBe('completed');
      const result = r.result as unknown as ScriptResult;
      expect(result.scale).toBe(1);
      expect(result.failed).toBe(0);
      expect(result.scripts.map((x) => x.name)).toEqual(['tpcb-like', 'select-only', 'own']);
      for (const x of result.scripts) expect(x.transactions, x.name).toBeGreaterThan(0);
      const b = await e.row(sqlSet(engine as 'postgresql', 'script').statement('check.sql', 'balances'));
      const [accounts, branches, tellers, history] = ['accounts', 'branches', 'tellers', 'history'].map((k) => Number(b[k]));
      expect(accounts).toBe(history);
      expect(branches).toBe(history);
      expect(tellers).toBe(history);
      const n = Number((await e.row('SELECT count(*) AS n FROM pgbench_history'))['n']);
      expect(n).toBeGreaterThanOrEqual(result.scripts[0]!.transactions);
      const check = await job({ type: 'check' });
      expect(check.status, JSON.stringify(check.error)).toBe('completed');
      expect(check.summary).toContain('pgbench invariant holds');
    });

    it.runIf(engine === 'postgresql')('runs tpcb-like at an arrival rate with a threshold by script: every scheduled arrival run or dropped, the invariant holds', async () => {
      const r = await job({ type: 'run', script: { scripts: [{ builtin: 'tpcb-like' }], rampup: 0, duration: 0.1, arrival: { rate: 50, maxSessions: 4 } }, thresholds: ['p99(tpcb-like)<60s', 'error_rate(tpcb-like)<1%'] });
      expect(r.status, JSON.stringify(r.error)).toBe('completed');
      const result = r.result as unknown as ScriptResult;
      const a = result.arrival!;
      expect(a).toMatchObject({ targetRate: 50, maxSessions: 4, latencyFromIntended: true });
      expect(result.transactions).toBeGreaterThan(0);
      expect(Math.abs(a.scheduled - a.dropped - result.transactions)).toBeLessThanOrEqual(4);
      expect(r.thresholdResults?.map((t) => [t.metric, t.ok])).toEqual([['p99(tpcb-like)', true], ['error_rate(tpcb-like)', true]]);
      const check = await job({ type: 'check' });
      expect(check.status, JSON.stringify(check.error)).toBe('completed');
    });

    it.runIf(engine === 'mariadb')('refuses, before the run, a pipelined script: MariaDB has no pipeline mode', async () => {
      const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target: e.target, script: { scripts: [{ name: 'piped', text: '\\startpipeline\nSELECT 1;\n\\endpipeline\n' }] } });
      expect(r.status).toBe(400);
      expect(r.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.scripts[0].text' });
      expect(String((r.body['error'] as { message: string }).message)).toMatch(/^piped:1: \\startpipeline: mariadb has no pipeline mode in its protocol \(PostgreSQL has\)/);
    });

    it.runIf(engine === 'postgresql')('runs pipelines as pgbench does: each pipeline one implicit transaction (one Sync), an error undoes and skips the rest', async () => {
      await e.row('CREATE TABLE pipe_log (c int, tx bigint, tag text)');
      const piped = (tag: string): string => `\\startpipeline\n${[1, 2, 3].map(() => `INSERT INTO pipe_log (c, tx, tag) VALUES (:client_id, txid_current(), '${tag}');`).join('\n')}\n\\endpipeline\n`;
      const broken = "\\startpipeline\nINSERT INTO pipe_log (c, tx, tag) VALUES (:client_id, txid_current(), 'broken');\nSELECT 1 / (:client_id::int - :client_id::int);\nINSERT INTO pipe_log (c, tx, tag) VALUES (:client_id, txid_current(), 'broken');\n\\endpipeline\n";
      const r = await job({ type: 'run', script: { scripts: [{ name: 'piped', text: piped('sledge') }, { name: 'broken', text: broken }], vus: 2, rampup: 0, duration: 0.05 } });
      expect(r.status, JSON.stringify(r.error)).toBe('completed');
      const result = r.result as unknown as ScriptResult;
      const [ok, bad] = result.scripts;
      expect(ok).toMatchObject({ name: 'piped', errors: 0 });
      expect(ok!.transactions).toBeGreaterThan(0);
      expect(bad).toMatchObject({ name: 'broken', transactions: 0 });
      expect(bad!.errors).toBeGreaterThan(0);
      // pgbench (libpq's pipeline mode) on the same script, for the same property
      const file = join(mkdtempSync(join(tmpdir(), 'sledge-pipe-')), 'piped.sql');
      writeFileSync(file, piped('pgbench'));
      execFileSync('pgbench', ['-n', '-M', 'prepared', '-c', '2', '-t', '3', '-f', file, '-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', DB], { stdio: 'pipe' });
      const shape = async (tag: string) => e.row(`SELECT count(*) AS n, count(DISTINCT tx) AS txs, (SELECT count(*) FROM (SELECT tx FROM pipe_log WHERE tag = '${tag}' GROUP BY tx HAVING count(*) <> 3) g) AS odd FROM pipe_log WHERE tag = '${tag}'`);
      const sledge = await shape('sledge');
      const pgbench = await shape('pgbench');
      expect(Number(pgbench['n'])).toBe(18);
      expect(Number(pgbench['txs'])).toBe(6);
      expect(Number(pgbench['odd'])).toBe(0);
      // Sledge: every pipeline that committed is 3 rows of one transaction, as pgbench's
      expect(Number(sledge['n'])).toBeGreaterThanOrEqual(ok!.transactions * 3);
      expect(Number(sledge['n'])).toBe(Number(sledge['txs']) * 3);
      expect(Number(sledge['odd'])).toBe(0);
      expect(Number((await e.row("SELECT count(*) AS n FROM pipe_log WHERE tag = 'broken'"))['n'])).toBe(0);
    });

    // pgbench 17's \syncpipeline (this machine's pgbench 15 lacks it): each Sync ends an implicit transaction, an error
    // skips only up to the next Sync, and a run whose parts failed twice is one failed transaction.
    it.runIf(engine === 'postgresql')('runs \\syncpipeline as pgbench 17 does: a transaction per Sync, an error skipping only its part, one error per run', async () => {
      await e.row('CREATE TABLE sync_log (c int, tx bigint, tag text)');
      const ins = (tag: string) => `INSERT INTO sync_log (c, tx, tag) VALUES (:client_id, txid_current(), '${tag}');`;
      const fail = 'SELECT 1 / (:client_id::int - :client_id::int);';
      const text = ['\\startpipeline', ins('before'), ins('before'), '\\syncpipeline', ins('after'), '\\syncpipeline', fail, ins('skipped'), '\\syncpipeline', fail, '\\syncpipeline', ins('last'), '\\endpipeline', ''].join('\n');
      const r = await job({ type: 'run', script: { scripts: [{ name: 'split', text }], vus: 2, rampup: 0, duration: 0.05 } });
      expect(r.status, JSON.stringify(r.error)).toBe('completed');
      const [split] = (r.result as unknown as ScriptResult).scripts;
      expect(split).toMatchObject({ name: 'split', transactions: 0 });
      expect(split!.errors).toBeGreaterThan(0);
      const n = async (where: string) => Number((await e.row(`SELECT count(*) AS n FROM sync_log WHERE ${where}`))['n']);
      const runs = await n("tag = 'after'");
      expect(runs).toBeGreaterThan(0);
      // every run: two 'before' rows in one transaction, then 'after' and 'last' in transactions of their own; nothing after an error in its part
      expect(await n("tag = 'before'")).toBe(2 * runs);
      expect(await n("tag = 'last'")).toBe(runs);
      expect(await n("tag = 'skipped'")).toBe(0);
      expect(Number((await e.row("SELECT count(DISTINCT tx) AS n FROM sync_log WHERE tag = 'before'"))['n'])).toBe(runs);
      expect(Number((await e.row('SELECT count(DISTINCT tx) AS n FROM sync_log'))['n'])).toBe(3 * runs);
      // the whole run's errors per VU: one per run of the script, though two of its parts failed
      const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${r.id}/vus`);
      expect(vus.reduce((a, v) => a + v.errors, 0)).toBe(runs);
      expect(vus.reduce((a, v) => a + v.commits, 0)).toBe(0);
      expect(split!.errors).toBeLessThanOrEqual(runs);
    });
  });
}
