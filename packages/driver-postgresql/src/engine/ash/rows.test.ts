import { describe, expect, it } from 'vitest';
import { convertActivity, isBackground, toSample, vuFromName, type PgActivityRow } from './rows.js';
import { normaliseSql, sqlTextId, truncateSql } from './sqltext.js';

const TS = 1_700_000_000_000;

const row = (over: Partial<PgActivityRow>): PgActivityRow => ({
  pid: 100,
  backend_type: 'client backend',
  state: 'active',
  wait_event_type: null,
  wait_event: null,
  usename: 'tpcc',
  application_name: 'sledge-vu-3',
  query_id: null,
  query: 'SELECT * FROM neword(1, 2, 3)',
  ...over,
});

describe('pg_stat_activity rows -> AshSamples', () => {
  it('active without a wait is CPU, with the VU, user, program and an md5 id of the text when there is no query_id', () => {
    const s = toSample(row({}), TS)!;
    expect(s).toEqual({
      ts: TS,
      session: '100',
      waitClass: 'CPU',
      event: 'CPU',
      vu: 3,
      user: 'tpcc',
      program: 'sledge-vu-3',
      sql: 'SELECT * FROM neword(1, 2, 3)',
      sqlId: sqlTextId('SELECT * FROM neword(1, 2, 3)'),
    });
    expect(s.sqlId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('uses query_id when the server computes one (PG14+), not when it is 0', () => {
    expect(toSample(row({ query_id: '-4242424242' }), TS)!.sqlId).toBe('-4242424242');
    expect(toSample(row({ query_id: '0' }), TS)!.sqlId).toBe(sqlTextId('SELECT * FROM neword(1, 2, 3)'));
  });

  it('a lock wait carries the first blocking pid', () => {
    const s = toSample(row({ wait_event_type: 'Lock', wait_event: 'transactionid', blocking_pids: [77, 78] }), TS)!;
    expect(s).toMatchObject({ waitClass: 'Lock', event: 'transactionid', engineClass: 'Lock', blocking: '77' });
  });

  it('idle in transaction counts as Client', () => {
    expect(toSample(row({ state: 'idle in transaction', wait_event_type: 'Client', wait_event: 'ClientRead' }), TS)).toMatchObject({
      waitClass: 'Client',
      event: 'ClientRead',
    });
    expect(toSample(row({ state: 'idle in transaction (aborted)' }), TS)).toMatchObject({ waitClass: 'Client', event: 'ClientRead' });
  });

  it('a COPY waiting for data is Client/ClientRead', () => {
    const s = toSample(row({ wait_event_type: 'Client', wait_event: 'ClientRead', query: 'COPY stock FROM STDIN', application_name: 'sledge-loader' }), TS)!;
    expect(s).toMatchObject({ waitClass: 'Client', event: 'ClientRead', program: 'sledge-loader' });
    expect(s.vu).toBeUndefined();
  });

  it('idle sessions and client backends without a state are left out', () => {
    expect(toSample(row({ state: 'idle', wait_event_type: 'Client', wait_event: 'ClientRead' }), TS)).toBeNull();
    expect(toSample(row({ state: 'disabled' }), TS)).toBeNull();
    expect(toSample(row({ state: null }), TS)).toBeNull();
  });

  it('background processes: idle loops left out, work marked background with the backend type as program', () => {
    const bg = (over: Partial<PgActivityRow>) =>
      row({ backend_type: 'checkpointer', state: null, usename: null, application_name: '', query: '', ...over });
    expect(toSample(bg({ wait_event_type: 'Activity', wait_event: 'CheckpointerMain' }), TS)).toBeNull();
    expect(toSample(bg({ backend_type: 'pgsentinel', wait_event_type: 'Extension', wait_event: 'Extension' }), TS)).toBeNull();
    expect(toSample(bg({ wait_event_type: 'IO', wait_event: 'DataFileWrite' }), TS)).toEqual({
      ts: TS,
      session: '100',
      waitClass: 'IO',
      event: 'DataFileWrite',
      engineClass: 'IO',
      program: 'checkpointer',
      background: true,
    });
    expect(toSample(bg({ backend_type: 'walwriter', wait_event_type: 'IO', wait_event: 'WALWrite' }), TS)).toMatchObject({ waitClass: 'Commit', background: true });
    expect(toSample(bg({ backend_type: 'autovacuum worker', state: 'active', query: 'autovacuum: VACUUM public.stock' }), TS)).toMatchObject({
      waitClass: 'CPU',
      background: true,
      program: 'autovacuum worker',
    });
  });

  it('background sleeps (checkpointer write delay, vacuum delay) are marked idle; a client sleeping in a query is not', () => {
    const bg = (over: Partial<PgActivityRow>) =>
      row({ backend_type: 'checkpointer', state: null, usename: null, application_name: '', query: '', ...over });
    expect(toSample(bg({ wait_event_type: 'Timeout', wait_event: 'CheckpointWriteDelay' }), TS)).toMatchObject({ waitClass: 'Timeout', background: true, idle: true });
    expect(toSample(bg({ backend_type: 'autovacuum worker', state: 'active', wait_event_type: 'Timeout', wait_event: 'VacuumDelay' }), TS)).toMatchObject({ idle: true });
    expect(toSample(bg({ wait_event_type: 'IO', wait_event: 'DataFileWrite' }), TS)).not.toHaveProperty('idle');
    expect(toSample(row({ wait_event_type: 'Timeout', wait_event: 'PgSleep' }), TS)).not.toHaveProperty('idle');
  });

  it('parallel workers belong to their query, not to the background', () => {
    expect(isBackground('parallel worker')).toBe(false);
    expect(isBackground('client backend')).toBe(false);
    expect(isBackground('autovacuum worker')).toBe(true);
    expect(isBackground(null)).toBe(false);
  });

  it('sessions of other users hidden by missing privileges are counted apart, not sampled', () => {
    const hidden = row({ backend_type: null, state: null, query: '<insufficient privilege>', application_name: 'psql', usename: 'postgres' });
    const r = convertActivity([hidden, row({ pid: 5 }), hidden], TS);
    expect(r.hidden).toBe(2);
    expect(r.samples.map((s) => s.session)).toEqual(['5']);
  });

  it('pgsentinel rows keep their own sampling time and blocker, and CPU as written by pgsentinel', () => {
    const r = convertActivity(
      [
        row({ ts_ms: TS - 500, wait_event_type: 'CPU', wait_event: 'CPU', query_id: '123' }),
        row({ ts_ms: TS - 500, pid: 101, wait_event_type: 'Lock', wait_event: 'tuple', blocking_pid: 100 }),
        row({ ts_ms: TS - 500, pid: 102, wait_event_type: 'Lock', wait_event: 'tuple', blocking_pid: 0 }),
      ],
      TS,
    );
    expect(r.samples[0]).toMatchObject({ ts: TS - 500, waitClass: 'CPU', event: 'CPU', sqlId: '123', engineClass: 'CPU' });
    expect(r.samples[1]).toMatchObject({ ts: TS - 500, waitClass: 'Lock', blocking: '100' });
    expect(r.samples[2]!.blocking).toBeUndefined();
  });
});

describe('statement text', () => {
  it('normalises constants, parameters, comments and spacing', () => {
    expect(normaliseSql("SELECT  *\n FROM customer /* x */ WHERE c_last = 'O''BRIEN' AND c_id = 42 -- tail\n AND c_w_id = $1")).toBe(
      'select * from customer where c_last = ? and c_id = ? and c_w_id = ?',
    );
    expect(normaliseSql('select t1.a from t1')).toBe('select t1.a from t1');
    expect(sqlTextId('SELECT 1')).toBe(sqlTextId('select   2'));
    expect(sqlTextId('SELECT 1 FROM a')).not.toBe(sqlTextId('SELECT 1 FROM b'));
  });

  it('truncates to 300 characters and flattens whitespace', () => {
    const long = `SELECT ${'x, '.repeat(200)}y`;
    const t = truncateSql(long);
    expect(t).toHaveLength(300);
    expect(t.endsWith('…')).toBe(true);
    expect(truncateSql('SELECT\n\t1')).toBe('SELECT 1');
  });

  it('reads the VU from sledge-vu-<n> only', () => {
    expect(vuFromName('sledge-vu-12')).toBe(12);
    expect(vuFromName('sledge-monitor')).toBeUndefined();
    expect(vuFromName('sledge-vu-')).toBeUndefined();
    expect(vuFromName(null)).toBeUndefined();
  });
});

describe('ASH scope and the job session tag', () => {
  it('a row outside the scope (in_scope false: sampled only with scope server) is marked outside', () => {
    expect(toSample(row({ in_scope: false }), TS)!.outside).toBe(true);
    expect(toSample(row({ in_scope: true }), TS)!.outside).toBeUndefined();
    expect(toSample(row({}), TS)!.outside).toBeUndefined();
  });

  it("with the job's tag only sledge-vu-<n>~<tag> is a VU; an impostor named sledge-vu-<n> keeps its name, not a VU number", () => {
    const { samples } = convertActivity([row({ pid: 1, application_name: 'sledge-vu-3~ab12cd34' }), row({ pid: 2, application_name: 'sledge-vu-3' }), row({ pid: 3, application_name: 'sledge-vu-3~00000000' })], TS, 'ab12cd34');
    expect(samples.map((s) => [s.session, s.vu, s.program])).toEqual([
      ['1', 3, 'sledge-vu-3~ab12cd34'],
      ['2', undefined, 'sledge-vu-3'],
      ['3', undefined, 'sledge-vu-3~00000000'],
    ]);
    // Without a job (the live target view) any Sledge VU name counts.
    expect(vuFromName('sledge-vu-3~ab12cd34')).toBe(3);
    expect(vuFromName('sledge-vu-3~ab12cd34', 'ab12cd34')).toBe(3);
    expect(vuFromName('sledge-vu-3', 'ab12cd34')).toBeUndefined();
  });
});
