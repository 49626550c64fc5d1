-- NOPM and TPM counters (hammerdb.md §6.4, §6.5). Cumulative values; the
-- monitor takes deltas over the measured window. Then maintenance: the
-- post-run checkpoint (target.checkpoint).
--
-- TPM by default (target.useAwr off) is 'user commits' + 'user rollbacks'
-- from v$sysstat, or gv$sysstat summed over the instances on RAC
-- (cluster_database = TRUE): no extra licence needed. With target.useAwr on,
-- each read takes an AWR snapshot and sums the same statistics from
-- dba_hist_sysstat, as HammerDB does; AWR is part of the Oracle Diagnostics
-- Pack, which must be licensed for that.

-- name: nopm
-- user
SELECT NVL(SUM(d_next_o_id), 0) AS nopm FROM district;

-- name: cluster_database
-- system
SELECT value AS value FROM v$parameter WHERE name = 'cluster_database';

-- name: tpm_sysstat
-- system
SELECT NVL(SUM(value), 0) AS tpm FROM v$sysstat WHERE name IN ('user commits', 'user rollbacks');

-- name: tpm_gv_sysstat
-- system: RAC, every instance.
SELECT NVL(SUM(value), 0) AS tpm FROM gv$sysstat WHERE name IN ('user commits', 'user rollbacks');

-- name: awr_snapshot
-- system: Diagnostics Pack.
BEGIN
  :snap_id := DBMS_WORKLOAD_REPOSITORY.CREATE_SNAPSHOT();
END;
/

-- name: tpm_awr
-- system: Diagnostics Pack; sums the instances of the snapshot (RAC).
SELECT NVL(SUM(value), 0) AS tpm
  FROM dba_hist_sysstat
 WHERE snap_id = :snap_id
   AND dbid = (SELECT dbid FROM v$database)
   AND stat_name IN ('user commits', 'user rollbacks');

-- name: checkpoint
-- system
ALTER SYSTEM CHECKPOINT;
