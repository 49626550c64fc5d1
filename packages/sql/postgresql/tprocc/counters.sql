-- Statements the driver runs as the TPC user in the TPC database: the
-- NOPM/TPM counters (hammerdb.md §6.4, §6.5) and maintenance (ANALYZE after
-- the build, VACUUM after a run when target.vacuum). By hand:
--   psql -d tpcc -U tpcc -f counters.sql

-- name: nopm_counter
SELECT coalesce(sum(d_next_o_id), 0)::bigint AS nopm FROM district;

-- name: tpm_counter
-- TPM counter: commits + rollbacks of the whole cluster, all databases, as HammerDB reads it.
-- epoch names the counter's lifetime: the postmaster's start and the latest
-- statistics reset. A restart (a crash discards the statistics) or
-- pg_stat_reset() changes it, and the monitor then counts the window from
-- its own readings instead of end - start.
SELECT coalesce(sum(xact_commit + xact_rollback), 0)::bigint AS tpm,
       pg_postmaster_start_time()::text || ' ' || coalesce(max(stats_reset)::text, '-') AS epoch
FROM pg_stat_database;

-- name: analyze
ANALYZE;

-- name: analyze_table
-- One table's statistics: a build's keys sessions each gather their own
-- tables' right after their keys (partitions of ORDER_LINE included).
ANALYZE :"table";

-- name: vacuum
VACUUM warehouse, district, customer, history, item, stock, new_order, orders, order_line;
