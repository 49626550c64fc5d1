-- Drop the TPROC-H tables of the schema (lineitem first, so the foreign
-- keys go with the referencing tables). The database itself stays: Db2
-- creates and drops databases with the CLP. The driver runs each statement
-- and ignores "not found" (SQLSTATE 42704), so dropping is idempotent.
--   db2 connect to tpch user db2inst1 && db2 -tvf drop.sql

-- name: drop_lineitem
DROP TABLE lineitem;

-- name: drop_orders
DROP TABLE orders;

-- name: drop_partsupp
DROP TABLE partsupp;

-- name: drop_part
DROP TABLE part;

-- name: drop_customer
DROP TABLE customer;

-- name: drop_supplier
DROP TABLE supplier;

-- name: drop_nation
DROP TABLE nation;

-- name: drop_region
DROP TABLE region;
