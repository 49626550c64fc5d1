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

describe('ASH scope (metrics.ashScope)', () => {
  it("both sources read only the target database's sessions of its roles and the shared background processes, unless the scope is server", () => {
    for (const [name, db, roles, server] of [
      ['activity', '$1', '$2', '$3'],
      ['pgsentinel_since', '$2', '$3', '$4'],
    ] as const) {
      const sql = ashStatement(name);
      const p = name === 'activity' ? 'a' : 'h';
      expect(sql, name).toContain(`(${p}.datname = ${db} AND (${p}.usename = ANY (${roles}::text[]) OR ${p}.backend_type <> 'client backend'))`);
      expect(sql, name).toContain(`OR (${p}.datid IS NULL AND ${p}.backend_type NOT IN ('client backend', 'walsender')), false) AS in_scope`);
      expect(sql, name).toMatch(new RegExp(`WHERE s\\.in_scope OR \\${server}::boolean`));
    }
  });
});
