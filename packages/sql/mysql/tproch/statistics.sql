-- TPROC-H statistics for MySQL and MariaDB: ANALYZE TABLE after the load.
-- Runnable with: mysql tpch < statistics.sql
ANALYZE TABLE region, nation, supplier, customer, part, partsupp, orders, lineitem;
