-- Drop the TPROC-H tables (used when the database is not Sledge's own;
-- otherwise admin.sql drops the database). Idempotent.
-- Runnable with: mysql tpch < drop.sql
SET FOREIGN_KEY_CHECKS = 0;
DROP TABLE IF EXISTS lineitem, orders, partsupp, part, customer, supplier, nation, region;
SET FOREIGN_KEY_CHECKS = 1;
