-- pgbench's built-in "select-only" script (-S): one account read.
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
