-- CH-benCHmark's three extra tables for MySQL 8 and MariaDB 10.6+ (MariaDB
-- reads this file too), created in the TPROC-C database beside TPROC-C's
-- nine tables (docs/chbench.md).
--
-- A template: the driver fills the placeholder before running it.
--   {{storage_engine}}  the TPROC-C tables' storage engine (tprocc.schema.storageEngine)
-- By hand:
--   sed 's/{{storage_engine}}/InnoDB/' tables.sql | mysql tpcc
--
-- Columns follow TPC-H's REGION, NATION and SUPPLIER with CH-benCHmark's
-- su_ prefix (core CHBENCH_COLUMNS order). Names are VARCHAR (TPC-H: CHAR).
-- Character data is latin1 with binary collation, as TPROC-C's: LIKE and
-- GROUP BY compare bytes, so 'A%' does not match 'a', as on PostgreSQL.
-- No keys here: indexes.sql adds them after the load.

CREATE TABLE region (
  r_regionkey  INT           NOT NULL,
  r_name       VARCHAR(25)   NOT NULL,
  r_comment    VARCHAR(152)  NOT NULL
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE nation (
  n_nationkey  INT           NOT NULL,
  n_name       VARCHAR(25)   NOT NULL,
  n_regionkey  INT           NOT NULL,
  n_comment    VARCHAR(152)  NOT NULL
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE supplier (
  su_suppkey   INT           NOT NULL,
  su_name      VARCHAR(25)   NOT NULL,
  su_address   VARCHAR(40)   NOT NULL,
  su_nationkey INT           NOT NULL,
  su_phone     CHAR(15)      NOT NULL,
  su_acctbal   DECIMAL(12,2) NOT NULL,
  su_comment   VARCHAR(101)  NOT NULL
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;
