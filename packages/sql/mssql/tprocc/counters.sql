-- NOPM and TPM counters (hammerdb.md §6.4, §6.5), read by the monitor in
-- the TPROC-C database. Both are cumulative; the monitor takes deltas.
-- Then maintenance: the post-run CHECKPOINT (target.checkpoint).

-- name: nopm
SELECT SUM(CAST(d_next_o_id AS bigint)) AS nopm FROM dbo.district;

-- name: tpm
-- 'Batch Requests/sec' is a raw cumulative counter despite its name.
SELECT TOP (1) cntr_value AS tpm
  FROM sys.dm_os_performance_counters
 WHERE counter_name = N'Batch Requests/sec'
   AND object_name LIKE N'%SQL Statistics%';

-- name: checkpoint
CHECKPOINT;
