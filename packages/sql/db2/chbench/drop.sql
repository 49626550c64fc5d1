-- Drop CH-benCHmark's three extra tables (keys and indexes go with them),
-- leaving TPROC-C's nine; SUPPLIER first, so the foreign keys go with the
-- referencing tables. A driver runs each statement and ignores "not found"
-- (SQLSTATE 42704), as for TPROC-H, so dropping is idempotent.
--   db2 connect to tpcc user db2inst1 && db2 -tvf drop.sql

-- name: drop_supplier
DROP TABLE supplier;

-- name: drop_nation
DROP TABLE nation;

-- name: drop_region
DROP TABLE region;
