import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TPROCC_COLUMNS } from '@sledge/core';
import type { JobList, OutputLine } from '@sledge/protocol';
import { sqlFile } from '@sledge/sql';
import { buildApp } from '../dist/app.js';
import { estimateDatagenBytes, MANIFEST_NAME, type DatagenManifest } from '../dist/workloads/tprocc/datagen-dir.js';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(REPO, 'apps', 'cli', 'dist', 'main.js');
const TS = '2025-06-01 12:00:00';
const SCRIPTS = ['load_postgresql.sql', 'load_mysql.sql', 'load_mariadb.sql', 'load_db2.sql', 'load_mssql.sh', 'load_oracle.sh'];

const manifestOf = (dir: string): DatagenManifest => JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8')) as DatagenManifest;
const csvFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.csv')).sort();
/** Rows per table over all workers, from a manifest. */
const rowsByTable = (m: DatagenManifest): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const w of m.workers) for (const [t, n] of Object.entries(w.rows)) out[t] = (out[t] ?? 0) + (n ?? 0);
  return out;
};

/**
 * Flat-file generation (HammerDB dgset/datagenrun) as a REST job and from the
 * CLI: typed errors before any work, byte-identical resume, and load scripts
 * that really load the files (PostgreSQL and MariaDB, live).
 */
describe('datagen', () => {
  let s: SledgeApp;
  /** A second server whose builds use the TypeScript generator (slower: easy to stop midway). */
  let sTs: SledgeApp;
  let root: string;
  let tsData: string;
  const dirA = () => join(root, 'resumed');
  const dirB = () => join(root, 'fresh');
  const jobCount = async (app: SledgeApp) => (await get<JobList>(app, '/api/v1/jobs')).total;
  const body = (dir: string, extra: Record<string, unknown> = {}) => ({
    type: 'datagen',
    target: { engine: 'sqlite' },
    tprocc: { warehouses: 2 },
    seed: 11,
    datagen: { dir, workers: 2, timestamp: TS },
    ...extra,
  });

  beforeAll(async () => {
    s = await makeApp();
    tsData = mkdtempSync(join(tmpdir(), 'sledge-test-ts-'));
    sTs = await buildApp({ dataDir: tsData, logger: false, uiDir: null, generator: 'typescript' });
    root = mkdtempSync(join(tmpdir(), 'sledge-datagen-'));
  });
  afterAll(async () => {
    await s.app.close();
    await sTs.app.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(tsData, { recursive: true, force: true });
  });

  it('rejects bad datagen input with a 400 naming the field, and creates no job', async () => {
    const before = await jobCount(s);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'datagen', target: { engine: 'sqlite' }, tprocc: { warehouses: 2 } }, 'datagen'],
      [body(join(root, 'x'), { datagen: { dir: join(root, 'x'), workers: 3 } }), 'datagen.workers'],
      [body(join(root, 'x'), { datagen: { dir: join(root, 'x'), workers: 1025 } }), 'datagen.workers'],
      [body(join(root, 'x'), { datagen: { dir: join(root, 'x'), workers: 0 } }), 'datagen.workers'],
      [body(join(root, 'x'), { datagen: { dir: '', workers: 1 } }), 'datagen.dir'],
      [body(join(root, 'x'), { datagen: { dir: join(root, 'x'), workers: 1, timestamp: 'yesterday' } }), 'datagen.timestamp'],
      [body(join(root, 'x'), { tprocc: { warehouses: 100001 } }), 'tprocc.warehouses'],
      [{ type: 'build', target: { engine: 'sqlite' }, datagen: { dir: 'x', workers: 1 } }, 'datagen'],
    ];
    for (const [b, field] of cases) {
      const r = await post(s, '/api/v1/jobs', b);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field } });
    }
    expect(existsSync(join(root, 'x'))).toBe(false);
    expect(await jobCount(s)).toBe(before);
  });

  it('a directory that cannot be written -> 400 naming datagen.dir, no job', async () => {
    const before = await jobCount(s);
    const file = join(root, 'plain-file');
    writeFileSync(file, 'not a directory');
    // Tests run as root, which ignores permission bits: a path below a regular file is unwritable for anyone.
    for (const dir of [join(file, 'out'), file]) {
      const r = await post(s, '/api/v1/jobs', body(dir));
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'datagen.dir' } });
      expect(String((r.body.error as { message: string }).message)).toMatch(/datagen\.dir .*(cannot be created|is a file)/);
    }
    expect(await jobCount(s)).toBe(before);
  });

  it('a file system without room for the estimate -> 400 naming datagen.dir, no job, nothing written', async () => {
    const before = await jobCount(s);
    const dir = join(root, 'small');
    process.env['SLEDGE_DATAGEN_FAKE_FREE_BYTES'] = String(50e6);
    try {
      const r = await post(s, '/api/v1/jobs', body(dir));
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'datagen.dir' } });
      expect(String((r.body.error as { message: string }).message)).toMatch(/has 50\.0 MB free but 2 warehouse\(s\) need about 1\d\d\.\d MB more/);
    } finally {
      delete process.env['SLEDGE_DATAGEN_FAKE_FREE_BYTES'];
    }
    expect(existsSync(dir)).toBe(false); // the directory the check created is removed again
    expect(await jobCount(s)).toBe(before);
  });

  it('a stopped run resumes where it stopped, byte-identical to an uninterrupted run, without touching a database', async () => {
    // 1. Start on the TypeScript-generator server and stop it midway.
    const r1 = await post(sTs, '/api/v1/jobs', body(dirA()));
    expect(r1.status, JSON.stringify(r1.body)).toBe(201);
    const id1 = String(r1.body.id);
    const end = Date.now() + 60_000;
    for (;;) {
      const m = existsSync(join(dirA(), MANIFEST_NAME)) ? manifestOf(dirA()) : null;
      if (m && m.workers.filter((w) => w.worker > 1).every((w) => w.units >= 3)) break;
      if (Date.now() > end) throw new Error('datagen made no progress');
      await new Promise((res) => setTimeout(res, 20));
    }
    const st = await sTs.app.inject({ method: 'POST', url: `/api/v1/jobs/${id1}/stop` });
    expect(st.statusCode).toBe(202);
    const j1 = await waitJob(sTs, id1);
    expect(j1.status).toBe('stopped');
    const m1 = manifestOf(dirA());
    expect(m1.complete).toBe(false);
    expect(m1.workers.some((w) => w.units < w.totalUnits)).toBe(true);
    expect(m1.generators).toEqual(['typescript']);
    expect(existsSync(join(dirA(), 'load_postgresql.sql'))).toBe(false);
    // A crash in the middle of a unit leaves bytes past the recorded length: the resume cuts them off.
    appendFileSync(join(dirA(), 'stock_2.csv'), '1,2,partial row from a crash');

    // 2. Resume on the native server: the same warehouses/workers; seed and timestamp come from the manifest.
    //    The target only labels the job: an unreachable PostgreSQL proves no connection is made.
    const unreachable = { engine: 'postgresql', host: '127.0.0.1', port: 1 };
    const r2 = await post(s, '/api/v1/jobs', { type: 'datagen', target: unreachable, tprocc: { warehouses: 2 }, datagen: { dir: dirA(), workers: 2 } });
    expect(r2.status, JSON.stringify(r2.body)).toBe(201);
    const j2 = await waitJob(s, String(r2.body.id));
    expect(j2.status, JSON.stringify(j2.error)).toBe('completed');
    expect(j2.seed).toBe(11);
    expect((j2.config as { datagen: { timestamp: string } }).datagen.timestamp).toBe(TS);
    const out = (await get<{ lines: OutputLine[] }>(s, `/api/v1/jobs/${j2.id}/output?limit=1000`)).lines.map((l) => l.text);
    const log = out.join('\n');
    expect(out.some((l) => l.startsWith('Resuming:')), log).toBe(true);
    expect(out.some((l) => /^Resuming at unit \d+ of 32$/.test(l)), log).toBe(true);
    expect(out.some((l) => /^Generating 1 Warehouses start:2 end:2$/.test(l)), log).toBe(true);
    expect(out.some((l) => /^Datagen of 2 warehouse\(s\) took [\d.]+ s: \d+ rows \(\d+ rows\/s\), [\d.]+ MB \([\d.]+ MB\/s\), \d+ rows and [\d.]+ MB in all after resuming, 17 files, generator native/.test(l)), log).toBe(true);
    const progress = await get<{ phase: string; workers: { rows: Record<string, number>; done: boolean }[] }>(s, `/api/v1/jobs/${j2.id}/progress`);
    expect(progress.phase).toBe('done');
    expect(progress.workers.every((w) => w.done)).toBe(true);
    const m2 = manifestOf(dirA());
    expect(m2.complete).toBe(true);
    expect(m2.generators.sort()).toEqual(['native', 'typescript']);

    // 3. An uninterrupted run into another directory.
    const r3 = await post(s, '/api/v1/jobs', { ...body(dirB()), target: unreachable });
    expect(r3.status, JSON.stringify(r3.body)).toBe(201);
    // While it runs, the directory belongs to it.
    const busy = await post(s, '/api/v1/jobs', body(dirB()));
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ error: { code: 'SLEDGE_E_CONFLICT', field: 'datagen.dir' } });
    expect(String((busy.body.error as { message: string }).message)).toMatch(/is in use by job/);
    const j3 = await waitJob(s, String(r3.body.id));
    expect(j3.status, JSON.stringify(j3.error)).toBe('completed');
    expect(j3.summary).toMatch(/^2 warehouses: \d+ rows, [\d.]+ MB in 17 files \(\d+ rows\/s, [\d.]+ MB\/s, generator native\) \+ load scripts in /);

    const files = csvFiles(dirB());
    expect(files).toEqual(csvFiles(dirA()));
    expect(files).toHaveLength(17); // item_1 + 8 tables x workers 2..3
    for (const f of files) {
      const a = readFileSync(join(dirA(), f));
      const b = readFileSync(join(dirB(), f));
      expect(a.equals(b), `${f} differs after resume`).toBe(true);
    }
    expect(rowsByTable(manifestOf(dirB()))).toEqual(rowsByTable(m2));
    // Resuming a complete directory does no work and keeps the files.
    const r4 = await post(s, '/api/v1/jobs', body(dirB()));
    const j4 = await waitJob(s, String(r4.body.id));
    expect(j4.status).toBe('completed');
    expect(readFileSync(join(dirB(), 'stock_3.csv')).equals(readFileSync(join(dirA(), 'stock_3.csv')))).toBe(true);
  });

  it('a directory holding files from other settings -> 409 naming datagen.dir, no job', async () => {
    const before = await jobCount(s);
    const cases: [Record<string, unknown>, RegExp][] = [
      [body(dirB(), { seed: 12 }), /seed 11 there, 12 asked/],
      [body(dirB(), { tprocc: { warehouses: 3 } }), /warehouses 2 there, 3 asked/],
      [body(dirB(), { datagen: { dir: dirB(), workers: 1, timestamp: TS } }), /workers 2 there, 1 asked/],
      [body(dirB(), { datagen: { dir: dirB(), workers: 2, timestamp: '2024-01-01 00:00:00' } }), /timestamp 2025-06-01 12:00:00 there/],
    ];
    for (const [b, re] of cases) {
      const r = await post(s, '/api/v1/jobs', b);
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_CONFLICT', field: 'datagen.dir' } });
      const msg = String((r.body.error as { message: string }).message);
      expect(msg).toMatch(/holds files from different settings \(/);
      expect(msg).toMatch(re);
      expect(msg).toMatch(/use an empty directory, or the same seed\/warehouses\/workers to resume$/);
    }
    // Files changed behind the manifest's back.
    renameSync(join(dirB(), 'history_3.csv'), join(root, 'history_3.csv'));
    try {
      const r = await post(s, '/api/v1/jobs', body(dirB()));
      expect(r.status).toBe(409);
      expect(String((r.body.error as { message: string }).message)).toMatch(/history_3\.csv is missing: the files were changed outside Sledge/);
    } finally {
      renameSync(join(root, 'history_3.csv'), join(dirB(), 'history_3.csv'));
    }
    // Generated files without a manifest cannot be resumed either.
    const stray = join(root, 'stray');
    mkdirSync(stray);
    writeFileSync(join(stray, 'stock_2.csv'), '1,1\n');
    const r = await post(s, '/api/v1/jobs', body(stray));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_CONFLICT', field: 'datagen.dir' } });
    expect(String((r.body.error as { message: string }).message)).toMatch(/without a sledge-datagen\.json/);
    expect(await jobCount(s)).toBe(before);
  });

  it('writes a load script per engine with one line per generated file; the size estimate holds', () => {
    const dir = dirB();
    const files = csvFiles(dir);
    for (const script of SCRIPTS) {
      const text = readFileSync(join(dir, script), 'utf8');
      expect(text, script).toMatch(/tprocc\/tables\.sql/);
      expect(text, script).toMatch(/indexes\.sql/);
      expect(text, script).not.toMatch(/\{\{/);
      const lines = text.split('\n');
      const mentioning = lines.filter((l) => /\.csv\b/.test(l) && !l.startsWith('--') && !l.startsWith('#'));
      expect(mentioning, script).toHaveLength(files.length);
      for (const f of files) {
        expect(mentioning.filter((l) => l.split(/[\s'"/]+/).includes(f)), `${script}: ${f}`).toHaveLength(1);
      }
    }
    expect(statSync(join(dir, 'load_mssql.sh')).mode & 0o111).not.toBe(0);
    // bcp format files map the files' column order onto packages/sql/mssql/tprocc/tables.sql (orders: o_w_id, o_d_id, o_id, ...).
    const fmt = readFileSync(join(dir, 'mssql_orders.fmt'), 'utf8').trim().split('\n');
    expect(fmt[1]).toBe(String(TPROCC_COLUMNS.orders.length));
    expect(fmt[2]).toBe('1 SQLCHAR 0 0 "," 3 o_id ""');
    expect(fmt[fmt.length - 1]).toMatch(/^8 SQLCHAR 0 0 "\\n" \d o_all_local ""$/);
    const ctl = readFileSync(join(dir, 'oracle_customer.ctl'), 'utf8');
    expect(ctl).toMatch(/c_since DATE "YYYY-MM-DD HH24:MI:SS"/);
    expect(ctl).toMatch(/c_data CHAR\(500\)/);
    expect(readFileSync(join(dir, 'load_mariadb.sql'), 'utf8')).toMatch(/\(o_id, o_d_id, o_w_id, o_c_id, o_entry_d, @o_carrier_id, o_ol_cnt, o_all_local\)\n {2}SET o_carrier_id = NULLIF\(@o_carrier_id, ''\);/);
    // NULL is an empty field, never \N.
    const orders = readFileSync(join(dir, 'orders_2.csv'), 'latin1');
    expect(orders).not.toContain('\\');
    expect(orders.split('\n').filter((l) => /,,/.test(l))).toHaveLength(9000);
    const bytes = files.reduce((a, f) => a + statSync(join(dir, f)).size, 0);
    const estimate = estimateDatagenBytes(2);
    expect(bytes).toBeLessThanOrEqual(estimate);
    expect(bytes).toBeGreaterThan(estimate * 0.96);
  });

  it('live: load_postgresql.sql loads the files into tables from packages/sql/postgresql/tprocc/tables.sql', () => {
    const psql = (args: string[], db = 'postgres') => execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', db, '-X', '-q', '-v', 'ON_ERROR_STOP=1', ...args], { encoding: 'utf8' });
    psql(['-c', 'DROP DATABASE IF EXISTS sledge_datagen_pg']);
    psql(['-c', 'CREATE DATABASE sledge_datagen_pg']);
    try {
      psql(['-f', sqlFile('postgresql', 'tprocc', 'tables.sql')], 'sledge_datagen_pg');
      const t0 = performance.now();
      psql(['-f', join(dirB(), 'load_postgresql.sql')], 'sledge_datagen_pg');
      console.log(`PostgreSQL load of 2 warehouses (17 files): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const expected = rowsByTable(manifestOf(dirB()));
      const sql = Object.keys(expected).map((t) => `SELECT '${t}', count(*) FROM ${t}`).join(' UNION ALL ');
      const got = Object.fromEntries(
        psql(['-At', '-F', ' ', '-c', sql], 'sledge_datagen_pg')
          .trim()
          .split('\n')
          .map((l) => [l.split(' ')[0]!, Number(l.split(' ')[1])]),
      );
      expect(got).toEqual(expected);
      // Empty fields became NULL: undelivered orders (o_id > 2100) have no carrier nor delivery date.
      const nulls = psql(['-At', '-c', 'SELECT (SELECT count(*) FROM orders WHERE o_carrier_id IS NULL), (SELECT count(*) FROM orders WHERE o_id > 2100), (SELECT count(*) FROM order_line WHERE ol_delivery_d IS NULL AND ol_o_id <= 2100)'], 'sledge_datagen_pg');
      expect(nulls.trim()).toBe('18000|18000|0');
    } finally {
      psql(['-c', 'DROP DATABASE IF EXISTS sledge_datagen_pg']);
    }
  });

  it('live: load_mariadb.sql loads the files with the mariadb client (LOAD DATA LOCAL INFILE)', () => {
    const maria = (args: string[], input?: string) =>
      execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', ...args], { encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
    maria(['-e', 'DROP DATABASE IF EXISTS sledge_datagen_my; CREATE DATABASE sledge_datagen_my']);
    try {
      // tables.sql is a template (its header says so): InnoDB, the optional parts empty.
      const ddl = readFileSync(sqlFile('mariadb', 'tprocc', 'tables.sql'), 'utf8').replace(/\{\{storage_engine\}\}/g, 'InnoDB').replace(/\{\{[a-z_]+\}\}/g, '');
      maria(['sledge_datagen_my'], ddl);
      const t0 = performance.now();
      maria(['--local-infile=1', 'sledge_datagen_my'], readFileSync(join(dirB(), 'load_mariadb.sql'), 'utf8'));
      console.log(`MariaDB load of 2 warehouses (17 files): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const expected = rowsByTable(manifestOf(dirB()));
      const sql = Object.keys(expected).map((t) => `SELECT '${t}', count(*) FROM ${t}`).join(' UNION ALL ');
      const got = Object.fromEntries(
        maria(['-N', '-B', 'sledge_datagen_my', '-e', sql])
          .trim()
          .split('\n')
          .map((l) => [l.split('\t')[0]!, Number(l.split('\t')[1])]),
      );
      expect(got).toEqual(expected);
      const nulls = maria(['-N', '-B', 'sledge_datagen_my', '-e', 'SELECT (SELECT count(*) FROM orders WHERE o_carrier_id IS NULL), (SELECT count(*) FROM order_line WHERE ol_delivery_d IS NULL AND ol_o_id > 2100), (SELECT count(*) FROM order_line WHERE ol_o_id > 2100)']);
      const [carrier, delivery, undelivered] = nulls.trim().split('\t').map(Number);
      expect(carrier).toBe(18000);
      expect(delivery).toBe(undelivered);
    } finally {
      maria(['-e', 'DROP DATABASE IF EXISTS sledge_datagen_my']);
    }
  });

  it('CLI: sledge datagen --local writes the files, progress to stderr and a summary to stdout; errors exit 2', async () => {
    const data = join(root, 'cli-data');
    const dir = join(root, 'cli-out');
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((res) => {
        execFile(process.execPath, [CLI, 'datagen', '--local', '--data-dir', data, ...args], (err, stdout, stderr) =>
          res({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const ok = await run(['--warehouses', '1', '--workers', '1', '--dir', dir, '--seed', '5']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/Generating 1 Warehouses start:1 end:1/);
    expect(ok.stderr).toMatch(/\[datagen\] \d+ \/ ~\d+ rows/);
    expect(ok.stdout).toMatch(/^datagen job [0-9A-F]{24} completed: 1 warehouses: \d+ rows, [\d.]+ MB in 9 files \(\d+ rows\/s/);
    expect(csvFiles(dir)).toHaveLength(9);
    expect(existsSync(join(dir, 'load_postgresql.sql'))).toBe(true);
    const bad = await run(['--warehouses', '1', '--workers', '1', '--dir', dir, '--seed', '6']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/error: SLEDGE_E_CONFLICT: --dir .* holds files from different settings \(seed 5 there, 6 asked\).*\[--dir\]/);
  });
});
