-- TPROC-H statistics for DuckDB: ANALYZE every table after the load
-- (distinct-value statistics; DuckDB keeps min/max zone maps as it loads),
-- then CHECKPOINT so the loaded data is in the file, not the WAL.
-- Runnable with: duckdb tpch.duckdb < statistics.sql
ANALYZE region;
ANALYZE nation;
ANALYZE supplier;
ANALYZE customer;
ANALYZE part;
ANALYZE partsupp;
ANALYZE orders;
ANALYZE lineitem;
CHECKPOINT;
