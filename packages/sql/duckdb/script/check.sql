-- pgbench's tables, read by the script workload (packages/sql/<engine>/script/); DuckDB reads the same text as SQLite.

-- name: branches
-- pgbench's scale: one branch per unit of scale.
SELECT count(*) AS n FROM pgbench_branches;

-- name: balances
-- pgbench's invariant after tpcb-like runs: the four sums are equal.
SELECT
  (SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts) AS accounts,
  (SELECT coalesce(sum(bbalance), 0) FROM pgbench_branches) AS branches,
  (SELECT coalesce(sum(tbalance), 0) FROM pgbench_tellers) AS tellers,
  (SELECT coalesce(sum(delta), 0) FROM pgbench_history) AS history;
