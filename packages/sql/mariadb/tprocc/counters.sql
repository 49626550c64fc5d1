-- MariaDB NOPM and TPM counters and maintenance (named). Replaces
-- packages/sql/mysql/tprocc/counters.sql: the counters and ANALYZE are MySQL's; the
-- InnoDB history list length comes from a status variable, and target.purge
-- can wait for purge after a run.

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
SELECT variable_value AS n FROM information_schema.global_status
 WHERE variable_name = 'INNODB_HISTORY_LIST_LENGTH'

-- name: purge_wait
-- target.purge: block until InnoDB purge has emptied the history list
-- (MariaDB >= 10.5.7). The variable is a trigger, not a setting: it keeps
-- its value, so nothing changes on the server. The driver bounds the wait
-- by killing this statement (kill_query) from its admin connection.
SET GLOBAL innodb_max_purge_lag_wait = 0

-- name: kill_query
KILL QUERY ?
