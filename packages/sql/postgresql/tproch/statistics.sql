-- TPROC-H statistics for PostgreSQL: ANALYZE every table after the load.
-- Runnable with: psql -d tpch -f statistics.sql
ANALYZE region;
ANALYZE nation;
ANALYZE supplier;
ANALYZE customer;
ANALYZE part;
ANALYZE partsupp;
ANALYZE orders;
ANALYZE lineitem;
