-- pgbench's primary keys, added after the load (ALTER TABLE ... ADD PRIMARY KEY, DuckDB 1.2+): an ART index each,
-- which the scripts' lookups by key (WHERE aid = $1) scan; then CHECKPOINT writes the loaded file once.
ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid);
ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid);
ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid);
CHECKPOINT;
