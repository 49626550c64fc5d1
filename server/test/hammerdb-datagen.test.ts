import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOB_TYPES } from '@sledge/protocol';
import { err, expectSucceeded, hdb, jobIdOf, message, ok, waitComplete } from './hammerdb-api.js';
import { makeApp } from './helpers.js';

/** HammerDB's datagenrun through the command API: flat files where dgset says, and by default under the data directory (the rest: hammerdb.test.ts). */

describe('datagenrun through the HammerDB API', () => {
  it('generates flat files from the dgset settings when the server has datagen jobs', async () => {
    const s = await makeApp();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'hdb-dg-'));
      expect(await hdb(s, 'POST', '/dbset', ' "db": "pg" ')).toEqual(ok('Database set to PostgreSQL'));
      expect(await hdb(s, 'POST', '/dgset', ` "directory": "${dir}" `)).toEqual(ok(`Set directory to ${dir} for data generation`));
      const r = await hdb(s, 'POST', '/datagenrun', '');
      if (!(JOB_TYPES as readonly string[]).includes('datagen')) {
        expect(r).toEqual(err('datagenrun is not supported by this Sledge server'));
        return;
      }
      expect(message(r)).toMatch(new RegExp(`^Generating 1 Warehouses for PostgreSQL with 1 Virtual User in ${dir}: JOBID=[0-9A-F]{24}$`));
      expectSucceeded(await waitComplete(s, jobIdOf(r)));
    } finally {
      await s.app.close();
    }
  });

  it('writes under the data directory by default, never the system temp directory (issue 30)', async () => {
    const s = await makeApp();
    try {
      const dir = join(s.dataDir, 'datagen');
      expect(await hdb(s, 'GET', '/print?datagen')).toMatchObject({ directory: dir });
      expect(await hdb(s, 'POST', '/dbset', ' "db": "pg" ')).toEqual(ok('Database set to PostgreSQL'));
      const r = await hdb(s, 'POST', '/datagenrun', '');
      if (!(JOB_TYPES as readonly string[]).includes('datagen')) return;
      expect(message(r)).toBe(`Generating 1 Warehouses for PostgreSQL with 1 Virtual User in ${dir}: JOBID=${jobIdOf(r)}`);
      expectSucceeded(await waitComplete(s, jobIdOf(r)));
      expect(readdirSync(dir)).toEqual(expect.arrayContaining(['sledge-datagen.json', 'load_postgresql.sql', 'item_1.csv']));
    } finally {
      await s.app.close();
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  });
});
