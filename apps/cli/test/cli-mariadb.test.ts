import { cliProcess } from './cli-process.js';
import { describe, expect, it } from 'vitest';

/** `sledge --local` on the local MariaDB (a file of its own: it runs beside cli.test.ts's SQLite tests). */
const { sledge, local } = cliProcess('mariadb');

describe('sledge CLI on MariaDB', () => {
  it('drives MariaDB with --db mariadb and --db mysql', async () => {
    const conn = ['--host', '127.0.0.1', '--port', '3306', '--user', 'root', '--password=', '--database', 'sledge_cli_maria'];
    (await sledge('delete', ...local, '--db', 'mariadb', ...conn));
    const b = (await sledge('build', ...local, '--db', 'mariadb', ...conn, '--warehouses', '1'));
    expect(b.code, b.err).toBe(0);
    for (const db of ['mariadb', 'mysql']) {
      const r = (await sledge('run', ...local, '--db', db, ...conn, '--vus', '2', '--rampup', '0', '--duration', '0.05'));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(new RegExp(`^TEST RESULT : System achieved \\d+ NOPM from \\d+ ${db === 'mysql' ? 'MySQL' : 'MariaDB'} TPM$`, 'm'));
    }
    expect((await sledge('delete', ...local, '--db', 'mariadb', ...conn)).code).toBe(0);
  });
});
