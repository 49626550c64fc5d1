import { describe, expect, it } from 'vitest';
import { parseNamedSql } from '@sledge/core';
import { sqlText } from '@sledge/sql';
import { validate, Db2Target } from '@sledge/protocol';
import { agentToSample, agentsToSamples, readAgentRow } from './rows.js';
import { monitorPrivilegeError } from './sampler.js';
import { ASH_SQL_FILE, ASH_STATEMENTS, ashStatement } from './sql.js';
import { normaliseSql, sqlTextId, vuFromName } from './text.js';

const TS = 1_700_000_000_000;

/** A row as ibm_db returns it (BIGINT as string, CHAR padded), keys lower-cased by Db2Session.query. */
const raw = (over: Record<string, unknown>): Record<string, unknown> => ({
  application_handle: '4711',
  event_state: 'EXECUTING',
  event_type: 'PROCESS',
  event_object: 'REQUEST',
  event_object_name: null,
  application_name: 'node',
  client_applname: 'sledge-vu-6',
  session_auth_id: 'DB2INST1        ',
  executable_id: '0100000000000000A10000000000000000000000020020251114093012345678',
  stmt_text: 'CALL NEWORD(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  hld_application_handle: null,
  lock_object_type: null,
  ...over,
});

describe('MON_GET_AGENT rows -> AshSamples', () => {
  it('EXECUTING is CPU, with the VU from CLIENT_APPLNAME, the user and the executable id', () => {
    expect(agentToSample(readAgentRow(raw({})), TS)).toEqual({
      ts: TS,
      session: '4711',
      waitClass: 'CPU',
      event: 'CPU',
      engineClass: 'REQUEST',
      vu: 6,
      user: 'DB2INST1',
      program: 'sledge-vu-6',
      sql: 'CALL NEWORD(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      sqlId: '0100000000000000A10000000000000000000000020020251114093012345678',
    });
  });

  it('a lock wait is Lock, names the lock object type and the holder', () => {
    const s = agentToSample(readAgentRow(raw({ event_state: 'IDLE', event_type: 'ACQUIRE', event_object: 'LOCK', event_object_name: '0200040005000000000000000052', hld_application_handle: '4702', lock_object_type: 'ROW' })), TS)!;
    expect(s).toMatchObject({ waitClass: 'Lock', event: 'ACQUIRE LOCK (ROW)', engineClass: 'LOCK', blocking: '4702' });
  });

  it('without an executable id the SQL id is the md5 of the normalised text; other programs have no VU', () => {
    const s = agentToSample(readAgentRow(raw({ executable_id: null, client_applname: null, application_name: 'db2bp', stmt_text: "SELECT * FROM item WHERE i_id = 42 AND i_name = 'x'" })), TS)!;
    expect(s.sqlId).toBe(sqlTextId("select * from item where i_id = 7 and i_name = 'y'"));
    expect(s.vu).toBeUndefined();
    expect(s.program).toBe('db2bp');
  });

  it('one sample per application, idle agents left out', () => {
    const xs = agentsToSamples(
      [
        readAgentRow(raw({ event_state: 'IDLE', event_type: 'ACQUIRE', event_object: 'LOCK', hld_application_handle: 1, lock_object_type: 'ROW' })),
        readAgentRow(raw({ event_state: 'IDLE', event_type: 'ACQUIRE', event_object: 'LOCK', hld_application_handle: 2, lock_object_type: 'TABLE' })),
        readAgentRow(raw({ application_handle: 9, event_state: 'IDLE', event_type: 'WAIT', event_object: 'REQUEST' })),
      ],
      TS,
    );
    expect(xs).toHaveLength(1);
    expect(xs[0]!.blocking).toBe('1');
  });

  it('text helpers', () => {
    expect(normaliseSql("SELECT 1 FROM t WHERE a = 'b' -- x")).toBe('select ? from t where a = ?');
    expect(vuFromName('sledge-vu-3 ')).toBe(3);
  });
});

describe('packages/sql/db2/metrics/ash.sql', () => {
  it('holds exactly the statements the driver runs, without the @ terminator', () => {
    const named = parseNamedSql(sqlText('db2', 'metrics', ASH_SQL_FILE));
    expect(Object.keys(named).sort()).toEqual([...ASH_STATEMENTS].sort());
    for (const n of ASH_STATEMENTS) expect(ashStatement(n)).not.toMatch(/@\s*$/);
    expect(ashStatement('set_client_applname')).toMatch(/WLM_SET_CLIENT_INFO\(NULL, NULL, \?, NULL, NULL\)/);
  });

  it('selects every column the row reader takes; leaves out idle agents and itself', () => {
    const sql = ashStatement('agents');
    for (const col of Object.keys(raw({}))) expect(sql, col).toMatch(new RegExp(`AS ${col}\\b`));
    expect(sql).toMatch(/MON_GET_AGENT/);
    expect(sql).toMatch(/MON_GET_APPL_LOCKWAIT/);
    expect(sql).toMatch(/<> MON_GET_APPLICATION_HANDLE\(\)/);
    expect(sql).toMatch(/NOT \(a\.event_state = 'IDLE' AND a\.event_type = 'WAIT' AND a\.event_object = 'REQUEST'\)/);
  });
});

describe('missing monitor privileges', () => {
  it('is SLEDGE_E_DB on target.user naming the GRANT', () => {
    const e = monitorPrivilegeError(validate(Db2Target, { engine: 'db2', user: 'tpcc' }));
    expect(e.code).toBe('SLEDGE_E_DB');
    expect(e.field).toBe('target.user');
    expect(e.message).toContain('GRANT SQLADM ON DATABASE TO USER TPCC');
  });
});

describe('ASH scope and the job session tag', () => {
  it("reads only the target user's applications of the connected database, unless the scope is server", () => {
    const sql = ashStatement('agents');
    expect(sql).toMatch(/CASE WHEN c\.session_auth_id = UPPER\(CAST\(\? AS VARCHAR\(128\)\)\) THEN 1 ELSE 0 END AS in_scope/);
    expect(sql).toMatch(/WHERE x\.in_scope = 1 OR CAST\(\? AS INTEGER\) = 1$/);
  });

  it('an application outside the scope is marked outside; only a CLIENT_APPLNAME carrying the job tag is a VU', () => {
    expect(agentToSample(readAgentRow(raw({ in_scope: 0 })), TS)!.outside).toBe(true);
    expect(agentToSample(readAgentRow(raw({ in_scope: '1' })), TS)!.outside).toBeUndefined();
    expect(agentToSample(readAgentRow(raw({ client_applname: 'sledge-vu-6~ab12cd34' })), TS, 'ab12cd34')).toMatchObject({ vu: 6 });
    expect(agentToSample(readAgentRow(raw({})), TS, 'ab12cd34')!.vu).toBeUndefined();
  });
});
