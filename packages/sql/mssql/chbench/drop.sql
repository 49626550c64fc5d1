-- Drop CH-benCHmark's three extra tables (keys and indexes go with them),
-- leaving TPROC-C's nine. Idempotent (DROP TABLE IF EXISTS: SQL Server 2016
-- and later). Run in the TPROC-C database:  sqlcmd -S host -U sa -d tpcc -i drop.sql

-- name: drop_supplier
DROP TABLE IF EXISTS dbo.supplier;

-- name: drop_nation
DROP TABLE IF EXISTS dbo.nation;

-- name: drop_region
DROP TABLE IF EXISTS dbo.region;
