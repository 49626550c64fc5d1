-- Drop CH-benCHmark's three extra tables (keys and indexes go with them),
-- leaving TPROC-C's nine. Idempotent. Runnable with: psql -d tpcc -f drop.sql
DROP TABLE IF EXISTS supplier CASCADE;
DROP TABLE IF EXISTS nation CASCADE;
DROP TABLE IF EXISTS region CASCADE;
