-- Drop the TPROC-C procedures and tables of the current schema. Run as the
-- TPROC-C user:  db2 -td@ -vf drop.sql
-- The database itself stays: Db2 creates and drops databases with the CLP
-- (db2 create/drop database), not with SQL. The driver runs each statement
-- and ignores "not found" (SQLSTATE 42704), so dropping is idempotent.

-- name: drop_neword
DROP PROCEDURE neword
@

-- name: drop_payment
DROP PROCEDURE payment
@

-- name: drop_delivery
DROP PROCEDURE delivery
@

-- name: drop_slev
DROP PROCEDURE slev
@

-- name: drop_ostat
DROP PROCEDURE ostat
@

-- name: drop_order_line
DROP TABLE order_line
@

-- name: drop_new_order
DROP TABLE new_order
@

-- name: drop_orders
DROP TABLE orders
@

-- name: drop_history
DROP TABLE history
@

-- name: drop_customer
DROP TABLE customer
@

-- name: drop_district
DROP TABLE district
@

-- name: drop_stock
DROP TABLE stock
@

-- name: drop_item
DROP TABLE item
@

-- name: drop_warehouse
DROP TABLE warehouse
@
