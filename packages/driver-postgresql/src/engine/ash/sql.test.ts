import { describe, expect, it } from 'vitest';
import { parseNamedSql } from '@sledge/core';
import { sqlText } from '@sledge/sql';
import { ASH_SQL_FILE, ASH_STATEMENTS, ashStatement } from './sql.js';

describe('packages/sql/postgresql/metrics/ash.sql', () => {
  it('holds exactly the statements the sampler runs', () => {
    const named = parseNamedSql(sqlText('postgresql', 'metrics', ASH_SQL_FILE));
    expect(Object.keys(named).sort()).toEqual([...ASH_STATEMENTS].sort());
    for (const n of ASH_STATEMENTS) expect(ashStatement(n)).toMatch(/^SELECT\b/m);
  });

  it('excludes the sampler itself and idle sessions, and asks for blockers only of lock waits', () => {
    const a = ashStatement('activity');
    expect(a).toMatch(/pid <> pg_backend_pid\(\)/);
    expect(a).toMatch(/state <> 'idle'/);
    expect(a).toMatch(/CASE WHEN a\.wait_event_type = 'Lock' THEN pg_blocking_pids/);
    expect(ashStatement('pgsentinel_since')).toMatch(/\$1/);
  });
});
