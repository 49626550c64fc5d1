-- Drop CH-benCHmark's three extra tables (their indexes go with them),
-- leaving TPROC-C's nine. Idempotent. Runnable with: sqlite3 tprocc.sqlite < drop.sql
DROP TABLE IF EXISTS supplier;
DROP TABLE IF EXISTS nation;
DROP TABLE IF EXISTS region;
