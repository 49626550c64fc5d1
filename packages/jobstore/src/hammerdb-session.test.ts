import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobStore } from './store.js';

describe('HammerDB session row', () => {
  it('keeps the settings and seals the passwords; a password the key cannot open is left out', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sledge-hdb-')), 'sledge.db');
    const key = randomBytes(32).toString('base64');
    const store = JobStore.open(path, { secretKey: key });
    expect(store.loadHammerdbSession()).toBeUndefined();
    store.saveHammerdbSession({ data: { version: 1, prefix: 'pg' }, secrets: { 'pg.tpcc.pg_pass': 'Row-Secret-1' } });
    store.saveHammerdbSession({ data: { version: 1, prefix: 'maria' }, secrets: { 'pg.tpcc.pg_pass': 'Row-Secret-2' } });
    expect(store.loadHammerdbSession()).toEqual({ data: { version: 1, prefix: 'maria' }, secrets: { 'pg.tpcc.pg_pass': 'Row-Secret-2' }, unreadable: [] });
    store.close();
    expect(readFileSync(path).includes('Row-Secret')).toBe(false);
    const other = JobStore.open(path, { secretKey: randomBytes(32).toString('base64') });
    try {
      expect(other.loadHammerdbSession()).toEqual({ data: { version: 1, prefix: 'maria' }, secrets: {}, unreadable: ['pg.tpcc.pg_pass'] });
    } finally {
      other.close();
    }
  });
});
