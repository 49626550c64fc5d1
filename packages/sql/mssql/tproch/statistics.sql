-- Optimizer statistics after the load and the keys, one table at a time
-- (full scan: the TPROC-H tables are loaded once and then only read).
--   sqlcmd -S host -U sa -d tpch -v table=lineitem -Q "UPDATE STATISTICS dbo.$(table) WITH FULLSCAN"

-- name: update_statistics
UPDATE STATISTICS dbo.$(table) WITH FULLSCAN;
