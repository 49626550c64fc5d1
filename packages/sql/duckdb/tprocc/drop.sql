-- Drop the TPROC-C tables (keys and indexes go with them), for a DuckDB
-- file that holds other objects too; otherwise the driver deletes the file.
-- Idempotent. Runnable with: duckdb tprocc.duckdb < drop.sql
DROP TABLE IF EXISTS order_line;
DROP TABLE IF EXISTS new_order;
DROP TABLE IF EXISTS orders;
DROP TABLE IF EXISTS history;
DROP TABLE IF EXISTS customer;
DROP TABLE IF EXISTS stock;
DROP TABLE IF EXISTS item;
DROP TABLE IF EXISTS district;
DROP TABLE IF EXISTS warehouse;
CHECKPOINT;
