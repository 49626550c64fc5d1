-- Drop CH-benCHmark's three extra tables (keys and indexes go with them),
-- leaving TPROC-C's nine. Idempotent. Runnable with: duckdb chbench.duckdb < drop.sql
DROP TABLE IF EXISTS supplier;
DROP TABLE IF EXISTS nation;
DROP TABLE IF EXISTS region;
