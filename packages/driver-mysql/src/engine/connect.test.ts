import { describe, expect, it } from 'vitest';
import { MAX_PREPARED_STATEMENTS, connectionOptions } from './connect.js';
import { mariadbTarget } from '../testing/live.js';

describe('connectionOptions at scale', () => {
  it("caps mysql2's per-connection statement cache (its 16000 preallocated slots cost ~0.5 MB a connection)", () => {
    const o = connectionOptions(mariadbTarget('sledge_mytest_x'), { useDatabase: true, role: 'vu2' });
    expect(o.maxPreparedStatements).toBe(MAX_PREPARED_STATEMENTS);
    expect(MAX_PREPARED_STATEMENTS).toBeLessThanOrEqual(256);
  });
});
