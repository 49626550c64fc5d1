import { describe, expect, it } from 'vitest';
import { parseNamedSql } from '@sledge/core';
import { sqlText } from '@sledge/sql';
import { readSessionRow, sessionKey, sessionToSample, sessionsToSamples } from './rows.js';
import { ASH_SQL_FILE, ASH_STATEMENTS, ashStatement } from './sql.js';
import { truncateSql, vuFromName } from './text.js';

const NOW = 1_700_000_000_000;

/** A V$SESSION row as node-oracledb returns it (keys lower-cased by OraSession.query). */
const raw = (over: Record<string, unknown>): Record<string, unknown> => ({
  sid: 123,
  serial: 4567,
  username: 'TPCC',
  program: 'node@loadgen (TNS V1-V3)',
  module: 'sledge-vu-5',
  client_identifier: 'sledge-vu-5',
  session_state: 'ON CPU',
  wait_class: null,
  event: null,
  sql_id: '8zt8yv3x9f2gd',
  blocking_session: null,
  blocking_serial: null,
  session_type: 'FOREGROUND',
  sql_text: 'BEGIN NEWORD(:no_w_id, :no_max_w_id, :no_d_id, :no_c_id, :no_o_ol_cnt, :no_c_discount, :no_c_last, :no_c_credit, :no_d_tax, :no_w_tax, :no_d_next_o_id, TO_DATE(:timestamp, \'YYYYMMDDHH24MISS\')); END;',
  age_ms: 0,
  sample_id: 0,
  ...over,
});

describe('V$SESSION / V$ACTIVE_SESSION_HISTORY rows -> AshSamples', () => {
  it('ON CPU is CPU, with the VU from the client identifier and the sql_id', () => {
    const s = sessionToSample(readSessionRow(raw({})), NOW)!;
    expect(s).toMatchObject({ ts: NOW, session: '123,4567', waitClass: 'CPU', event: 'CPU', vu: 5, user: 'TPCC', program: 'sledge-vu-5', sqlId: '8zt8yv3x9f2gd' });
    expect(s.engineClass).toBeUndefined();
    expect(s.sql!.startsWith('BEGIN NEWORD(')).toBe(true);
    expect(s.sql!.length).toBeLessThanOrEqual(300);
  });

  it('a row lock wait is Lock with the blocker as sid,serial', () => {
    const s = sessionToSample(
      readSessionRow(raw({ session_state: 'WAITING', wait_class: 'Application', event: 'enq: TX - row lock contention', blocking_session: 130, blocking_serial: 9 })),
      NOW,
    )!;
    expect(s).toMatchObject({ waitClass: 'Lock', event: 'enq: TX - row lock contention', engineClass: 'Application', blocking: '130,9' });
  });

  it('log file sync is Commit, db file sequential read IO, buffer busy Latch, log file switch Configuration', () => {
    const w = (wait_class: string, event: string) => sessionToSample(readSessionRow(raw({ session_state: 'WAITING', wait_class, event })), NOW)!.waitClass;
    expect(w('Commit', 'log file sync')).toBe('Commit');
    expect(w('User I/O', 'db file sequential read')).toBe('IO');
    expect(w('Concurrency', 'buffer busy waits')).toBe('Latch');
    expect(w('Configuration', 'log file switch (checkpoint incomplete)')).toBe('Configuration');
    expect(w('Network', 'SQL*Net more data to client')).toBe('Network');
  });

  it('idle waits are dropped; other programs keep their module and have no VU', () => {
    const xs = sessionsToSamples(
      [
        readSessionRow(raw({ session_state: 'WAITING', wait_class: 'Idle', event: 'SQL*Net message from client' })),
        readSessionRow(raw({ sid: 200, client_identifier: null, module: 'SQL*Plus', program: 'sqlplus@db (TNS V1-V3)' })),
      ],
      NOW,
    );
    expect(xs).toHaveLength(1);
    expect(xs[0]).toMatchObject({ session: '200,4567', program: 'SQL*Plus' });
    expect(xs[0]!.vu).toBeUndefined();
  });

  it('ASH rows are stamped at their own sampling time and background sessions are marked', () => {
    const s = sessionToSample(readSessionRow(raw({ age_ms: 730, sample_id: 99812, session_type: 'BACKGROUND', client_identifier: null, module: null, program: 'oracle@db (LGWR)', username: null, session_state: 'WAITING', wait_class: 'System I/O', event: 'log file parallel write' })), NOW)!;
    expect(s).toMatchObject({ ts: NOW - 730, waitClass: 'IO', event: 'log file parallel write', background: true, program: 'oracle@db (LGWR)' });
  });

  it('reads numbers that arrive as strings', () => {
    expect(readSessionRow(raw({ sid: '7', serial: '8', age_ms: '12' }))).toMatchObject({ sid: 7, serial: 8, age_ms: 12 });
    expect(sessionKey(7, null)).toBe('7');
    expect(truncateSql(' a \n b ')).toBe('a b');
    expect(vuFromName('sledge-vu-2')).toBe(2);
  });
});

describe('packages/sql/oracle/metrics/ash.sql', () => {
  it('holds exactly the statements the sampler runs, sendable without SQL*Plus terminators', () => {
    const named = parseNamedSql(sqlText('oracle', 'metrics', ASH_SQL_FILE));
    expect(Object.keys(named).sort()).toEqual([...ASH_STATEMENTS].sort());
    for (const n of ASH_STATEMENTS) {
      expect(ashStatement(n)).toMatch(/^SELECT\b/);
      expect(ashStatement(n)).not.toMatch(/;\s*$/);
    }
  });

  it('both sources give every column the row reader takes', () => {
    for (const n of ['sessions', 'ash_since'] as const) {
      const sql = ashStatement(n);
      for (const col of Object.keys(raw({}))) expect(sql, `${n}: ${col}`).toMatch(new RegExp(`AS ${col}\\b`));
    }
  });

  it('V$SESSION: active user sessions, not idle waits, not the sampler; ASH: after :since_id', () => {
    const s = ashStatement('sessions');
    expect(s).toMatch(/s\.status = 'ACTIVE'/);
    expect(s).toMatch(/s\.type = 'USER'/);
    expect(s).toMatch(/wait_class = 'Idle'/);
    expect(s).toMatch(/SYS_CONTEXT\('USERENV', 'SID'\)/);
    expect(ashStatement('ash_since')).toMatch(/sample_id > :since_id/);
  });
});

describe('ASH scope and the job session tag', () => {
  it("both sources read only the target user's sessions (and ASH's background processes), unless the scope is server", () => {
    const s = ashStatement('sessions');
    expect(s).toMatch(/CASE WHEN s\.username = :scope_user OR s\.username = UPPER\(:scope_user\) THEN 1 ELSE 0 END AS in_scope/);
    expect(s).toMatch(/WHERE x\.in_scope = 1 OR :server = 1$/);
    const h = ashStatement('ash_since');
    expect(h).toMatch(/u\.username = :scope_user OR u\.username = UPPER\(:scope_user\) OR h\.session_type = 'BACKGROUND'/);
    expect(h).toMatch(/WHERE x\.in_scope = 1 OR :server = 1\s+ORDER BY x\.sample_id, x\.sid$/);
  });

  it('a session outside the scope is marked outside; only a client identifier carrying the job tag is a VU', () => {
    expect(sessionToSample(readSessionRow(raw({ in_scope: 0 })), NOW)!.outside).toBe(true);
    expect(sessionToSample(readSessionRow(raw({ in_scope: 1 })), NOW)!.outside).toBeUndefined();
    const tagged = raw({ module: 'sledge-vu-5~ab12cd34', client_identifier: 'sledge-vu-5~ab12cd34' });
    expect(sessionToSample(readSessionRow(tagged), NOW, 'ab12cd34')).toMatchObject({ vu: 5, program: 'sledge-vu-5~ab12cd34' });
    const impostor = sessionToSample(readSessionRow(raw({})), NOW, 'ab12cd34')!;
    expect(impostor.vu).toBeUndefined();
    expect(impostor.program).toBe('sledge-vu-5');
  });
});
