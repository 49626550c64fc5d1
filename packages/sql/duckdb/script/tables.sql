-- pgbench's four tables (pgbench -i), as its documentation describes them; keys come after the load (keys.sql).
-- DuckDB stores CHAR(n) as VARCHAR (no blank padding).
CREATE TABLE pgbench_history (tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER, mtime TIMESTAMP, filler CHAR(22));
CREATE TABLE pgbench_tellers (tid INTEGER NOT NULL, bid INTEGER, tbalance INTEGER, filler CHAR(84));
CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL, bid INTEGER, abalance INTEGER, filler CHAR(84));
CREATE TABLE pgbench_branches (bid INTEGER NOT NULL, bbalance INTEGER, filler CHAR(88));
