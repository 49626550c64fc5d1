-- CH-benCHmark's three extra tables for SQLite (docs/chbench.md), created in
-- the TPROC-C database file beside TPROC-C's nine tables.
-- Runnable with: sqlite3 tprocc.sqlite < tables.sql
--
-- Columns follow TPC-H's REGION, NATION and SUPPLIER with CH-benCHmark's
-- su_ prefix (core CHBENCH_COLUMNS order). Types as TPROC-C's on SQLite:
-- INTEGER keys, TEXT strings, REAL money. SQLite adds no key to an existing
-- table, so the primary and foreign keys are declared here (the small tables
-- are loaded in key order, REGION before NATION before SUPPLIER); the
-- foreign keys' indexes come after the load (indexes.sql).

CREATE TABLE region (
  r_regionkey  INTEGER NOT NULL,
  r_name       TEXT    NOT NULL,
  r_comment    TEXT    NOT NULL,
  PRIMARY KEY (r_regionkey)
) WITHOUT ROWID;

CREATE TABLE nation (
  n_nationkey  INTEGER NOT NULL,
  n_name       TEXT    NOT NULL,
  n_regionkey  INTEGER NOT NULL REFERENCES region (r_regionkey),
  n_comment    TEXT    NOT NULL,
  PRIMARY KEY (n_nationkey)
) WITHOUT ROWID;

CREATE TABLE supplier (
  su_suppkey   INTEGER NOT NULL,
  su_name      TEXT    NOT NULL,
  su_address   TEXT    NOT NULL,
  su_nationkey INTEGER NOT NULL REFERENCES nation (n_nationkey),
  su_phone     TEXT    NOT NULL,
  su_acctbal   REAL    NOT NULL,
  su_comment   TEXT    NOT NULL,
  PRIMARY KEY (su_suppkey)
);
