-- NOPM and TPM counters (hammerdb.md §6.4, §6.5) and maintenance (named):
-- ANALYZE after the build, the InnoDB history list length after a run.
-- MariaDB replaces this file with packages/sql/mariadb/tprocc/counters.sql.

-- name: nopm
-- NOPM counter: new orders so far, summed over districts.
SELECT COALESCE(SUM(d_next_o_id), 0) AS nopm FROM district

-- name: engine_counters
-- TPM counter (hammerdb.md 6.5): Com_commit + Com_rollback, server-wide.
SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_commit', 'Com_rollback')

-- name: analyze
ANALYZE TABLE warehouse, district, customer, history, item, stock, new_order, orders, order_line

-- name: analyze_table
-- One table's statistics: a build's keys sessions each gather their own
-- tables' right after their keys.
ANALYZE TABLE {{table}}

-- name: history_length
-- InnoDB history list length: undo not yet purged.
SELECT count AS n FROM information_schema.INNODB_METRICS WHERE name = 'trx_rseg_history_len'
