-- Drop the TPROC-H tables (keys and indexes go with them), for a DuckDB
-- file that holds other objects too; otherwise the driver deletes the file.
-- Idempotent. Runnable with: duckdb tpch.duckdb < drop.sql
DROP TABLE IF EXISTS lineitem;
DROP TABLE IF EXISTS orders;
DROP TABLE IF EXISTS partsupp;
DROP TABLE IF EXISTS part;
DROP TABLE IF EXISTS customer;
DROP TABLE IF EXISTS supplier;
DROP TABLE IF EXISTS nation;
DROP TABLE IF EXISTS region;
CHECKPOINT;
