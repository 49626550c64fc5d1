import { describe, expect, it } from 'vitest';
import { parseNamedSql } from '@sledge/core';
import { sqlText } from '@sledge/sql';
import { readRequestRow, requestToSample, requestsToSamples, type MssqlRequestRow } from './rows.js';
import type { AshSamplerOptions } from '@sledge/core';
import type { MssqlTarget } from '@sledge/protocol';
import { scopeParams, viewServerStateError } from './sampler.js';
import { ASH_SQL_FILE, ASH_STATEMENTS, ashStatement } from './sql.js';
import { normaliseSql, sqlTextId, truncateSql, vuFromName } from './text.js';

const TS = 1_700_000_000_000;

/** A row as tedious hands it over (column name -> value), from a TPROC-C run. */
const raw = (over: Record<string, unknown>): Record<string, unknown> => ({
  session_id: 57,
  status: 'running',
  command: 'EXECUTE',
  wait_type: null,
  wait_time: 0,
  last_wait_type: 'SOS_SCHEDULER_YIELD',
  wait_resource: '',
  blocking_session_id: 0,
  query_hash: '0x1B2C3D4E5F601234',
  login_name: 'sa',
  program_name: 'sledge-vu-4',
  task_wait_type: null,
  task_blocking_session_id: null,
  resource_description: null,
  statement_text: 'UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_id = @no_d_id AND d_w_id = @no_w_id',
  ...over,
});
const row = (over: Record<string, unknown>): MssqlRequestRow => readRequestRow(raw(over));

describe('sys.dm_exec_requests rows -> AshSamples', () => {
  it('a running request without a wait is CPU, with VU, login, program, query_hash and the running statement', () => {
    expect(requestToSample(row({}), TS)).toEqual({
      ts: TS,
      session: '57',
      waitClass: 'CPU',
      event: 'CPU',
      engineClass: 'running',
      vu: 4,
      user: 'sa',
      program: 'sledge-vu-4',
      sql: 'UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_id = @no_d_id AND d_w_id = @no_w_id',
      sqlId: '0x1B2C3D4E5F601234',
    });
  });

  it('a lock wait names the blocking session', () => {
    const s = requestToSample(row({ status: 'suspended', wait_type: 'LCK_M_U', wait_time: 830, wait_resource: 'KEY: 5:72057594043564032 (8194443284a0)', blocking_session_id: 61 }), TS)!;
    expect(s).toMatchObject({ waitClass: 'Lock', event: 'LCK_M_U', engineClass: 'suspended', blocking: '61' });
  });

  it('a parallel request takes its task wait and blocker when its own worker shows none', () => {
    const s = requestToSample(row({ status: 'suspended', wait_type: null, task_wait_type: 'CXPACKET', task_blocking_session_id: 57 }), TS)!;
    expect(s).toMatchObject({ waitClass: 'IPC', event: 'CXPACKET' });
    // A session "blocked" by its own parallel tasks is not a blocking chain.
    expect(s.blocking).toBeUndefined();
  });

  it('runnable is Scheduler; WRITELOG is Commit; PAGEIOLATCH is IO; ASYNC_NETWORK_IO is Network', () => {
    expect(requestToSample(row({ status: 'runnable' }), TS)).toMatchObject({ waitClass: 'Scheduler', event: 'SOS_SCHEDULER_YIELD' });
    expect(requestToSample(row({ status: 'suspended', wait_type: 'WRITELOG' }), TS)).toMatchObject({ waitClass: 'Commit' });
    expect(requestToSample(row({ status: 'suspended', wait_type: 'PAGEIOLATCH_SH', wait_resource: '5:1:1234' }), TS)).toMatchObject({ waitClass: 'IO' });
    expect(requestToSample(row({ status: 'suspended', wait_type: 'ASYNC_NETWORK_IO' }), TS)).toMatchObject({ waitClass: 'Network' });
  });

  it('without a query_hash (or a zero one) the id is the md5 of the normalised statement', () => {
    const text = "SELECT c_balance FROM customer WHERE c_last = 'BARBARABLE'";
    expect(requestToSample(row({ query_hash: null, statement_text: text }), TS)!.sqlId).toBe(sqlTextId(text));
    expect(requestToSample(row({ query_hash: '0x0000000000000000', statement_text: text }), TS)!.sqlId).toBe(sqlTextId(text));
    expect(requestToSample(row({ query_hash: null, statement_text: null }), TS)!.sqlId).toBeUndefined();
  });

  it('sessions of other programs have no VU; sleeping requests are dropped', () => {
    const xs = requestsToSamples([row({ program_name: 'Microsoft SQL Server Management Studio' }), row({ session_id: 60, status: 'sleeping' })], TS);
    expect(xs).toHaveLength(1);
    expect(xs[0]!.vu).toBeUndefined();
    expect(xs[0]!.program).toBe('Microsoft SQL Server Management Studio');
  });

  it('reads typed values from loose driver rows', () => {
    expect(readRequestRow(raw({ session_id: '58', blocking_session_id: null }))).toMatchObject({ session_id: 58, blocking_session_id: null });
  });
});

describe('statement text helpers', () => {
  it('normalise constants and @parameters', () => {
    expect(normaliseSql("SELECT * FROM t WHERE a = N'x' AND b = 12 AND c = @p1 -- c\n")).toBe('select * from t where a = ? and b = ? and c = ?');
    expect(truncateSql('x'.repeat(400))).toHaveLength(300);
    expect(vuFromName('sledge-vu-7')).toBe(7);
    expect(vuFromName('sledge-ash')).toBeUndefined();
  });
});

describe('packages/sql/mssql/metrics/ash.sql', () => {
  it('holds exactly the statements the sampler runs, comments trimmed', () => {
    const named = parseNamedSql(sqlText('mssql', 'metrics', ASH_SQL_FILE));
    expect(Object.keys(named).sort()).toEqual([...ASH_STATEMENTS].sort());
    for (const n of ASH_STATEMENTS) expect(ashStatement(n)).toMatch(/^SELECT\b/);
  });

  it('selects every column the row reader takes, from user sessions other than its own', () => {
    const sql = ashStatement('requests');
    for (const col of Object.keys(raw({}))) expect(sql, col).toMatch(new RegExp(`\\b${col}\\b`));
    expect(sql).toMatch(/is_user_process = 1/);
    expect(sql).toMatch(/session_id <> @@SPID/);
    expect(sql).toMatch(/sys\.dm_os_waiting_tasks/);
    expect(sql).toMatch(/sys\.dm_exec_sql_text\(r\.sql_handle\)/);
  });
});

describe('missing VIEW SERVER STATE', () => {
  it('is SLEDGE_E_DB on target.user with the exact GRANT', () => {
    const e = viewServerStateError('tpcc_user');
    expect(e.code).toBe('SLEDGE_E_DB');
    expect(e.field).toBe('target.user');
    expect(e.message).toContain('USE master; GRANT VIEW SERVER STATE TO [tpcc_user];');
    expect(viewServerStateError('odd]name').message).toContain('GRANT VIEW SERVER STATE TO [odd]]name];');
  });
});

describe('ASH scope and the job session tag', () => {
  const t = { engine: 'mssql', host: 'h', port: 1433, authentication: 'sql', user: 'tpcc_login', password: 'p', database: 'tpcc' } as unknown as MssqlTarget;

  it("reads only the target database's requests of the target login, unless the scope is server", () => {
    const sql = ashStatement('requests');
    expect(sql).toMatch(/r\.database_id = DB_ID\(@database\) AND s\.login_name = @login THEN 1 ELSE 0 END AS in_scope/);
    expect(sql).toMatch(/WHERE x\.in_scope = 1 OR @server = 1;?$/);
    const byName = (opts: AshSamplerOptions) => Object.fromEntries(scopeParams(t, opts).map((p) => [p.name, p.value]));
    expect(byName({})).toEqual({ database: 'tpcc', login: 'tpcc_login', server: 0 });
    expect(byName({ scope: 'database' })).toEqual({ database: 'tpcc', login: 'tpcc_login', server: 0 });
    expect(byName({ scope: 'server' })).toEqual({ database: 'tpcc', login: 'tpcc_login', server: 1 });
  });

  it('a request outside the scope is marked outside; only a program carrying the job tag is a VU', () => {
    expect(requestToSample(row({ in_scope: 0 }), TS)!.outside).toBe(true);
    expect(requestToSample(row({ in_scope: 1 }), TS)!.outside).toBeUndefined();
    expect(requestToSample(row({ program_name: 'sledge-vu-4~ab12cd34' }), TS, 'ab12cd34')).toMatchObject({ vu: 4, program: 'sledge-vu-4~ab12cd34' });
    const impostor = requestToSample(row({ program_name: 'sledge-vu-4' }), TS, 'ab12cd34')!;
    expect(impostor.vu).toBeUndefined();
    expect(impostor.program).toBe('sledge-vu-4');
    expect(requestToSample(row({ program_name: 'sledge-vu-4~ffffffff' }), TS, 'ab12cd34')!.vu).toBeUndefined();
  });
});
