import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMyVuLoop, type NativeLoader } from '@sledge/worker-native';
import { parseMysqlUrl, MARIADB_URL } from '../testing/live.js';

// The MariaDB C connector session of @sledge/worker-native that MyLoader
// sends LOAD DATA through, on the real server: it answers only the file it
// was handed, and its failures carry errno and sqlState as mysql2's do.
// Built when libmariadb-dev is installed (.ci/run installs it).
const loop = loadMyVuLoop();
const DB = 'sledge_mytest_native_loader';
const p = parseMysqlUrl(MARIADB_URL);
const config = { host: p.host, port: p.port, user: p.user, password: p.password, role: 'loader' };

describe.skipIf(!loop.available)('native loader session (MariaDB C connector)', () => {
  let l: NativeLoader;

  beforeAll(async () => {
    if (!loop.available) return;
    const admin = await loop.openLoader(config);
    await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
    await admin.query(`CREATE DATABASE ${DB} CHARACTER SET latin1`);
    await admin.query(`CREATE TABLE ${DB}.t (a INT PRIMARY KEY, b VARCHAR(10))`);
    await admin.close();
    l = await loop.openLoader({ ...config, database: DB });
  });
  afterAll(async () => {
    await l?.query(`DROP DATABASE IF EXISTS ${DB}`);
    await l?.close();
  });

  const load = (file: string) => `LOAD DATA LOCAL INFILE '${file}' INTO TABLE t CHARACTER SET latin1 FIELDS TERMINATED BY ',' (a, b)`;

  it('loads the buffer it is handed, \\N as NULL, and reports rows and warnings', async () => {
    const r = await l.loadData(load('sledge/t/1'), 'sledge/t/1', Buffer.from('1,x\n2,\\N\n3,zz\n', 'latin1'));
    expect(r).toEqual({ affectedRows: 3, warnings: 0 });
    const q = await l.query('SELECT a, b FROM t ORDER BY a');
    expect(q.rows).toEqual([
      { a: '1', b: 'x' },
      { a: '2', b: null },
      { a: '3', b: 'zz' },
    ]);
  });

  it('refuses a file name other than the one handed over, and changes nothing', async () => {
    const e = await l.loadData(load('/etc/passwd'), 'sledge/t/2', Buffer.from('9,y\n')).then(
      () => undefined,
      (x: unknown) => x as Error & { errno: number; sqlState: string },
    );
    expect(e?.message).toBe('refusing LOCAL INFILE request for "/etc/passwd": not a file this session sent');
    expect(e?.errno).toBe(2000);
    expect((await l.query('SELECT COUNT(*) AS n FROM t')).rows).toEqual([{ n: '3' }]);
  });

  it('rejects with the server error number and SQLSTATE', async () => {
    const e = await l.query('SELECT * FROM no_such_table').then(
      () => undefined,
      (x: unknown) => x as Error & { errno: number; sqlState: string },
    );
    expect(e?.errno).toBe(1146);
    expect(e?.sqlState).toBe('42S02');
    expect(e?.message).toMatch(/no_such_table' doesn't exist/);
  });

  it('runs one call at a time per session', async () => {
    const first = l.query('SELECT SLEEP(0.2) AS s');
    await expect(l.query('SELECT 1')).rejects.toThrow('a call is already running on this session');
    expect((await first).rows).toEqual([{ s: '0' }]);
  });

  it('reports a refused password as error 1045, and never the password', async () => {
    if (!loop.available) return;
    const e = await loop.openLoader({ ...config, password: 'sledge-wrong-password' }).then(
      () => undefined,
      (x: unknown) => x as Error & { errno: number },
    );
    expect(e?.errno).toBe(1045);
    expect(e?.message).not.toContain('sledge-wrong-password');
  });
});
