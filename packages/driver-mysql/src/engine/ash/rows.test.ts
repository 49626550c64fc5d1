import { describe, expect, it } from 'vitest';
import { MARIADB, MYSQL } from '../flavour.js';
import { ROW_LOCK_EVENT, processlistToSamples, psToSamples, readProcesslistRow, readPsRow, readRowLockWaits } from './rows.js';
import { ASH_STATEMENTS, AshSql } from './sql.js';
import { normaliseSql, sledgeProgram, sqlTextId, truncateSql } from './text.js';

const TS = 1_700_000_000_000;

/** A performance_schema row as mysql2 returns it. */
const ps = (over: Record<string, unknown>) =>
  readPsRow({
    thread_id: 61,
    processlist_id: 21,
    user: 'root',
    command: 'Query',
    state: 'executing',
    wait_event_id: null,
    wait_event: null,
    wait_object: null,
    sql_text: 'CALL NEWORD(1,1,2381,10,0,@disc,@last,@credit,@dtax,@wtax,@next_o_id,NOW())',
    digest: '6f1e0b6d8a6b2b5d0f4a5c1d9e8f7a6b',
    digest_text: 'CALL `NEWORD` (...)',
    program_name: 'sledge',
    sledge_role: 'vu7',
    ...over,
  });

describe('performance_schema rows -> AshSamples', () => {
  it('no current wait is CPU, with the VU from the connection attributes and the digest as SQL id', () => {
    expect(psToSamples([ps({})], new Map(), TS)).toEqual([
      {
        ts: TS,
        session: '21',
        waitClass: 'CPU',
        event: 'CPU',
        vu: 7,
        user: 'root',
        program: 'sledge-vu-7',
        sql: 'CALL NEWORD(1,1,2381,10,0,@disc,@last,@credit,@dtax,@wtax,@next_o_id,NOW())',
        sqlId: '6f1e0b6d8a6b2b5d0f4a5c1d9e8f7a6b',
      },
    ]);
  });

  it('keeps the innermost wait in progress of a thread', () => {
    const xs = psToSamples(
      [ps({ wait_event_id: 100, wait_event: 'wait/io/table/sql/handler', wait_object: 'stock' }), ps({ wait_event_id: 101, wait_event: 'wait/io/file/innodb/innodb_data_file', wait_object: './tpcc/stock.ibd' })],
      new Map(),
      TS,
    );
    expect(xs).toHaveLength(1);
    expect(xs[0]).toMatchObject({ waitClass: 'IO', event: 'wait/io/file/innodb/innodb_data_file', engineClass: 'wait/io/file' });
  });

  it('a redo-log write is Commit; idle threads are dropped; other programs keep their name', () => {
    expect(psToSamples([ps({ wait_event_id: 5, wait_event: 'wait/io/file/innodb/innodb_log_file' })], new Map(), TS)[0]!.waitClass).toBe('Commit');
    expect(psToSamples([ps({ wait_event_id: 5, wait_event: 'idle' })], new Map(), TS)).toEqual([]);
    const other = psToSamples([ps({ program_name: 'mysql', sledge_role: null })], new Map(), TS)[0]!;
    expect(other.program).toBe('mysql');
    expect(other.vu).toBeUndefined();
  });

  it('a session in an InnoDB row lock wait is Lock with its blocker, whatever its current wait', () => {
    const waits = readRowLockWaits([{ waiting_id: '21', blocking_id: '20' }]);
    const [s] = psToSamples([ps({ wait_event_id: 9, wait_event: 'wait/synch/mutex/innodb/lock_mutex' })], waits, TS);
    expect(s).toMatchObject({ waitClass: 'Lock', event: ROW_LOCK_EVENT, blocking: '20' });
    const [t] = psToSamples([ps({ wait_event_id: 9, wait_event: 'wait/lock/table/sql/handler' })], waits, TS);
    expect(t).toMatchObject({ waitClass: 'Lock', event: 'wait/lock/table/sql/handler', blocking: '20' });
  });
});

describe('process-list rows -> AshSamples (performance_schema OFF)', () => {
  const pl = (over: Record<string, unknown>) => readProcesslistRow({ processlist_id: 30, user: 'root', command: 'Query', state: 'Sending data', sql_text: 'SELECT BENCHMARK(1000000, MD5(1))', ...over });

  it('state text heuristics, md5 SQL id, no VU', () => {
    const [s] = processlistToSamples([pl({})], new Map(), TS);
    expect(s).toEqual({ ts: TS, session: '30', waitClass: 'CPU', event: 'CPU', engineClass: 'Query', user: 'root', sql: 'SELECT BENCHMARK(1000000, MD5(1))', sqlId: sqlTextId('SELECT BENCHMARK(1000000, MD5(1))') });
    expect(processlistToSamples([pl({ state: 'Waiting for table metadata lock' })], new Map(), TS)[0]).toMatchObject({ waitClass: 'Lock', event: 'Waiting for table metadata lock' });
    expect(processlistToSamples([pl({ state: 'User sleep' })], new Map(), TS)[0]).toMatchObject({ waitClass: 'Timeout', event: 'User sleep' });
  });

  it('a row lock wait reads "Statistics": INNODB_TRX makes it Lock with the blocker', () => {
    const [s] = processlistToSamples([pl({ state: 'Statistics', sql_text: 'SELECT * FROM t WHERE id = 1 FOR UPDATE' })], readRowLockWaits([{ waiting_id: 30, blocking_id: 29 }]), TS);
    expect(s).toMatchObject({ waitClass: 'Lock', event: ROW_LOCK_EVENT, blocking: '29' });
    const [u] = processlistToSamples([pl({ state: 'Updating' })], readRowLockWaits([{ waiting_id: 30, blocking_id: null }]), TS);
    expect(u).toMatchObject({ waitClass: 'Lock' });
    expect(u!.blocking).toBeUndefined();
  });
});

describe('ASH scope and the job session tag', () => {
  it("both statements read only the target user's threads in the target database, unless the scope is server", () => {
    for (const name of ['ps_sessions', 'processlist'] as const) {
      const sql = new AshSql(MYSQL).get(name);
      const t = name === 'ps_sessions' ? 't.PROCESSLIST_DB = ? AND t.PROCESSLIST_USER = ?' : 'p.DB = ? AND p.USER = ?';
      expect(sql, name).toContain(`COALESCE(${t}, 0) AS in_scope`);
      expect(sql, name).toMatch(/WHERE x\.in_scope = 1 OR \? = 1;?$/);
    }
  });

  it('a thread outside the scope is marked outside; only a sledge_role carrying the job tag is a VU', () => {
    expect(psToSamples([ps({ in_scope: 0 })], new Map(), TS)[0]!.outside).toBe(true);
    expect(psToSamples([ps({ in_scope: 1 })], new Map(), TS)[0]!.outside).toBeUndefined();
    expect(processlistToSamples([readProcesslistRow({ processlist_id: 5, user: 'other', command: 'Query', state: 'User sleep', sql_text: 'SELECT SLEEP(9)', in_scope: '0' })], new Map(), TS)[0]!.outside).toBe(true);
    expect(psToSamples([ps({ sledge_role: 'vu7~ab12cd34' })], new Map(), TS, 'ab12cd34')[0]).toMatchObject({ vu: 7, program: 'sledge-vu-7~ab12cd34' });
    const impostor = psToSamples([ps({})], new Map(), TS, 'ab12cd34')[0]!;
    expect(impostor.vu).toBeUndefined();
    expect(impostor.program).toBe('sledge-vu-7');
    expect(sledgeProgram('sledge', 'vu7~00000000', 'ab12cd34')).toEqual({ program: 'sledge-vu-7~00000000' });
  });
});

describe('helpers', () => {
  it('name Sledge sessions from their connection attributes', () => {
    expect(sledgeProgram('sledge', 'vu12')).toEqual({ program: 'sledge-vu-12', vu: 12 });
    expect(sledgeProgram('sledge', 'loader')).toEqual({ program: 'sledge-loader' });
    expect(sledgeProgram('mysqlsh', null)).toEqual({ program: 'mysqlsh' });
    expect(sledgeProgram(null, null)).toEqual({});
  });

  it('normalise statement text', () => {
    expect(normaliseSql("SELECT * FROM t WHERE a = 'x\\'y' AND b = 3 # c\n")).toBe('select * from t where a = ? and b = ?');
    // Text cut inside a double-quoted literal (performance_schema keeps 1 KiB of it), and IN lists of any length.
    expect(normaliseSql('SELECT * FROM t WHERE a IN ("x", "y") AND b = "cut sh')).toBe('select * from t where a in (?) and b = ?');
    expect(truncateSql('a'.repeat(301))).toHaveLength(300);
  });
});

describe('packages/sql/<engine>/metrics/ash.sql', () => {
  it('MySQL defines every statement; MariaDB overrides only the row lock waits and takes the rest from MySQL', () => {
    const my = new AshSql(MYSQL);
    const maria = new AshSql(MARIADB);
    for (const n of ASH_STATEMENTS) {
      expect(my.source(n)).toMatch(/sql\/mysql\/metrics\/ash\.sql$/);
      expect(my.get(n)).not.toMatch(/^\s*--/m);
    }
    expect(maria.source('row_lock_waits')).toMatch(/sql\/mariadb\/metrics\/ash\.sql$/);
    expect(maria.get('row_lock_waits')).toMatch(/INNODB_LOCK_WAITS/);
    expect(my.get('row_lock_waits')).toMatch(/data_lock_waits/);
    expect(maria.source('ps_sessions')).toMatch(/sql\/mysql\/metrics\/ash\.sql$/);
  });

  it('ps_sessions: foreground, not Sleep, not itself, only waits in progress (#905)', () => {
    const s = new AshSql(MYSQL).get('ps_sessions');
    expect(s).toMatch(/t\.TYPE = 'FOREGROUND'/);
    expect(s).toMatch(/NOT IN \('Sleep'/);
    expect(s).toMatch(/<> CONNECTION_ID\(\)/);
    expect(s).toMatch(/END_EVENT_ID IS NULL/);
    for (const col of ['thread_id', 'processlist_id', 'wait_event_id', 'wait_event', 'wait_object', 'sql_text', 'digest', 'digest_text', 'program_name', 'sledge_role']) {
      expect(s, col).toMatch(new RegExp(`AS ${col}\\b`));
    }
  });
});
