-- Post-run maintenance (named).

-- name: history_length
-- InnoDB history list length: undo not yet purged.
SELECT count AS n FROM information_schema.INNODB_METRICS WHERE name = 'trx_rseg_history_len'
