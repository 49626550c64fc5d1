-- MariaDB's differences from packages/sql/mysql/metrics/ash.sql (every other
-- statement is taken from there).

-- name: row_lock_waits
-- InnoDB transactions waiting for a row lock, with one blocker each
-- (MariaDB keeps information_schema.INNODB_LOCK_WAITS, which works with
-- performance_schema OFF). Needs the PROCESS privilege. A row lock wait
-- shows as "Statistics" or "Updating" in the process list: this is what
-- tells it apart.
SELECT r.trx_mysql_thread_id AS waiting_id,
       MIN(b.trx_mysql_thread_id) AS blocking_id
  FROM information_schema.INNODB_TRX r
  LEFT JOIN information_schema.INNODB_LOCK_WAITS w ON w.requesting_trx_id = r.trx_id
  LEFT JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id
 WHERE r.trx_state = 'LOCK WAIT'
 GROUP BY r.trx_mysql_thread_id;
