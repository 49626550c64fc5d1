-- pgbench's primary keys, added after the load (SQLite adds no PRIMARY KEY to a table: unique indexes serve the lookups).
CREATE UNIQUE INDEX pgbench_branches_pkey ON pgbench_branches (bid);
CREATE UNIQUE INDEX pgbench_tellers_pkey ON pgbench_tellers (tid);
CREATE UNIQUE INDEX pgbench_accounts_pkey ON pgbench_accounts (aid);
