-- TPROC-C statistics for DuckDB: ANALYZE every table after the load
-- (distinct-value statistics; DuckDB keeps min/max zone maps as it loads),
-- then CHECKPOINT so the loaded data is in the file, not the WAL.
-- Runnable with: duckdb tprocc.duckdb < statistics.sql
ANALYZE warehouse;
ANALYZE district;
ANALYZE item;
ANALYZE stock;
ANALYZE customer;
ANALYZE history;
ANALYZE orders;
ANALYZE new_order;
ANALYZE order_line;
CHECKPOINT;
