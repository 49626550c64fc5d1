-- CH-benCHmark's three extra tables for DuckDB (docs/chbench.md), created in
-- the TPROC-C file beside TPROC-C's nine tables.
-- Runnable with: duckdb chbench.duckdb < tables.sql
--
-- Columns follow TPC-H's REGION, NATION and SUPPLIER with CH-benCHmark's
-- su_ prefix (core CHBENCH_COLUMNS order). Names are VARCHAR (TPC-H: CHAR)
-- so answers read the same on every engine. No keys here: indexes.sql adds
-- them after the load.

CREATE TABLE region (
  r_regionkey  INTEGER       NOT NULL,
  r_name       VARCHAR(25)   NOT NULL,
  r_comment    VARCHAR(152)  NOT NULL
);

CREATE TABLE nation (
  n_nationkey  INTEGER       NOT NULL,
  n_name       VARCHAR(25)   NOT NULL,
  n_regionkey  INTEGER       NOT NULL,
  n_comment    VARCHAR(152)  NOT NULL
);

CREATE TABLE supplier (
  su_suppkey   INTEGER       NOT NULL,
  su_name      VARCHAR(25)   NOT NULL,
  su_address   VARCHAR(40)   NOT NULL,
  su_nationkey INTEGER       NOT NULL,
  su_phone     CHAR(15)      NOT NULL,
  su_acctbal   DECIMAL(12,2) NOT NULL,
  su_comment   VARCHAR(101)  NOT NULL
);
