-- NOPM counter (hammerdb.md §6.4) and maintenance (ANALYZE after the build,
-- WAL checkpoint after the build, a drop and a run) read/run by the SQLite
-- driver's admin session. SQLite has no server-wide commit counter, so the
-- driver reports no TPM counter (tpm null: a client-side engine).

-- name: counters_nopm
-- NOPM counter: sum of the districts' next order ids (HammerDB's query).
SELECT coalesce(sum(d_next_o_id), 0) AS nopm FROM district;

-- name: analyze
-- Optimizer statistics after the build (indexes.sql).
ANALYZE;

-- name: after_run_checkpoint
-- Post-run maintenance: fold the WAL back into the database and truncate it.
PRAGMA wal_checkpoint(TRUNCATE);
