-- NOPM and TPM counters (hammerdb.md §6.4, §6.5), read by the monitor as
-- the TPROC-C user. Both are cumulative; the monitor takes deltas. Then
-- maintenance: RUNSTATS after the build.

-- name: nopm
SELECT COALESCE(SUM(BIGINT(d_next_o_id)), 0) AS nopm FROM district
@

-- name: tpm
-- Application commits + rollbacks of the database (all members).
SELECT SUM(total_app_commits + total_app_rollbacks) AS tpm FROM sysibmadm.mon_db_summary
@

-- name: runstats
-- Optimizer statistics for one table, after the keys exist.
CALL SYSPROC.ADMIN_CMD('RUNSTATS ON TABLE "${schema}"."${table}" WITH DISTRIBUTION AND DETAILED INDEXES ALL')
@
