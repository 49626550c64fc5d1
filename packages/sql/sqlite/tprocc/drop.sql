-- Drop the TPROC-C tables (their indexes go with them). Idempotent.
-- Runnable with: sqlite3 tprocc.sqlite < drop.sql
DROP TABLE IF EXISTS order_line;
DROP TABLE IF EXISTS new_order;
DROP TABLE IF EXISTS orders;
DROP TABLE IF EXISTS history;
DROP TABLE IF EXISTS customer;
DROP TABLE IF EXISTS stock;
DROP TABLE IF EXISTS item;
DROP TABLE IF EXISTS district;
DROP TABLE IF EXISTS warehouse;
