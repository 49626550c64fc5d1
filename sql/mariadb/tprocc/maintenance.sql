-- MariaDB post-run maintenance (named). Replaces sql/mysql/tprocc/maintenance.sql.

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
