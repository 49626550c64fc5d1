-- CH-benCHmark's three extra tables for Oracle (docs/chbench.md), created by
-- the TPROC-C user in its default tablespace, beside TPROC-C's nine tables.
--   sqlplus tpcc/tpcc@//host:1521/FREEPDB1 @tables.sql
-- Columns follow TPC-H's REGION, NATION and SUPPLIER with CH-benCHmark's
-- su_ prefix (core CHBENCH_COLUMNS order). Names are VARCHAR2 (TPC-H: CHAR).
-- No keys here: indexes.sql adds them after the load.

-- name: region
CREATE TABLE region (
  r_regionkey  NUMBER        NOT NULL,
  r_name       VARCHAR2(25)  NOT NULL,
  r_comment    VARCHAR2(152) NOT NULL
);

-- name: nation
CREATE TABLE nation (
  n_nationkey  NUMBER        NOT NULL,
  n_name       VARCHAR2(25)  NOT NULL,
  n_regionkey  NUMBER        NOT NULL,
  n_comment    VARCHAR2(152) NOT NULL
);

-- name: supplier
CREATE TABLE supplier (
  su_suppkey   NUMBER        NOT NULL,
  su_name      VARCHAR2(25)  NOT NULL,
  su_address   VARCHAR2(40)  NOT NULL,
  su_nationkey NUMBER        NOT NULL,
  su_phone     CHAR(15)      NOT NULL,
  su_acctbal   NUMBER(12,2)  NOT NULL,
  su_comment   VARCHAR2(101) NOT NULL
);
