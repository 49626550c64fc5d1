import { describe, expect, it } from 'vitest';
import { WAIT_CLASSES } from '@sledge/protocol';
import { MYSQL_WAIT_RULES, PROCESSLIST_STATE_RULES, mysqlWaitClass, processlistStateClass } from './waitclass.js';

describe('MySQL / MariaDB wait-class tables', () => {
  it('map only to Sledge wait classes', () => {
    for (const r of MYSQL_WAIT_RULES) if (r.waitClass !== null) expect(WAIT_CLASSES).toContain(r.waitClass);
    for (const r of PROCESSLIST_STATE_RULES) expect(WAIT_CLASSES).toContain(r.waitClass);
  });

  it.each([
    ['wait/io/file/innodb/innodb_data_file', './tpcc/stock.ibd', 'IO'],
    ['wait/io/file/innodb/innodb_log_file', '/var/lib/mysql/#innodb_redo/#ib_redo12', 'Commit'],
    ['wait/io/file/innodb/innodb_log_file', null, 'Commit'],
    ['wait/io/file/innodb/innodb_data_file', '/var/lib/mysql/ib_logfile0', 'Commit'],
    ['wait/io/file/sql/binlog', '/var/lib/mysql/binlog.000042', 'Commit'],
    ['wait/io/file/sql/FRM', './tpcc/stock.frm', 'IO'],
    ['wait/io/table/sql/handler', 'stock', 'IO'],
    ['wait/io/socket/sql/client_connection', null, 'Network'],
    ['wait/lock/table/sql/handler', 'district', 'Lock'],
    ['wait/lock/metadata/sql/mdl', 'warehouse', 'Lock'],
    ['wait/synch/cond/innodb/lock_wait_cond', null, 'Lock'],
    ['wait/synch/cond/sql/Item_func_sleep::cond', null, 'Timeout'],
    ['wait/synch/cond/sql/Item_func_get_lock::cond', null, 'Lock'],
    ['wait/synch/cond/sql/MDL_context::COND_wait_status', null, 'Lock'],
    ['wait/synch/mutex/innodb/trx_sys_mutex', null, 'Latch'],
    ['wait/synch/rwlock/innodb/dict_operation_lock', null, 'Latch'],
    ['wait/synch/sxlock/innodb/hash_table_locks', null, 'Latch'],
    ['wait/synch/cond/sql/MYSQL_BIN_LOG::COND_done', null, 'Latch'],
    ['wait/something/new', null, 'Other'],
  ] as const)('%s (%s) -> %s', (event, object, cls) => {
    expect(mysqlWaitClass(event, object)).toBe(cls);
  });

  it("'idle' is not activity", () => {
    expect(mysqlWaitClass('idle')).toBeNull();
  });

  it.each([
    [null, 'CPU'],
    ['', 'CPU'],
    ['Sending data', 'CPU'],
    ['executing', 'CPU'],
    ['Statistics', 'CPU'],
    ['Updating', 'CPU'],
    ['Waiting for table metadata lock', 'Lock'],
    ['Waiting for table level lock', 'Lock'],
    ['Waiting for global read lock', 'Lock'],
    ['System lock', 'Lock'],
    ['Waiting for table flush', 'Lock'],
    ['waiting for handler commit', 'Commit'],
    ['Waiting for semi-sync ACK from slave', 'Commit'],
    ['Sending to client', 'Network'],
    ['Writing to net', 'Network'],
    ['User sleep', 'Timeout'],
    ['Waiting on empty queue', 'Other'],
  ] as const)('process-list state %s -> %s', (state, cls) => {
    expect(processlistStateClass(state)).toBe(cls);
  });
});
