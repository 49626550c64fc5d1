-- Optional fragments of tables.sql, chosen from the target's schema options
-- and pasted into its {{placeholders}} by the driver (comment lines dropped).

-- name: history_pk
-- target.historyPk: an invisible auto-increment primary key on HISTORY
-- (MySQL >= 8.0.30 can generate one itself; this states it explicitly).
-- Invisible, so SELECT * and column-less INSERTs do not see it.
id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY,

-- name: order_line_partition
-- target.partition with W >= 200: ORDER_LINE hashed by warehouse into
-- floor(W/100) partitions.
PARTITION BY HASH (ol_w_id) PARTITIONS {{partitions}}
