-- CH-benCHmark's three extra tables for SQL Server (docs/chbench.md), created
-- in the TPROC-C database beside TPROC-C's nine tables.
-- Run in the TPROC-C database:  sqlcmd -S host -U sa -d tpcc -i tables.sql
-- Columns follow TPC-H's REGION, NATION and SUPPLIER with CH-benCHmark's
-- su_ prefix (core CHBENCH_COLUMNS order). Names are varchar (TPC-H: char).
-- No keys here: indexes.sql adds them after the load.

-- name: region
CREATE TABLE dbo.region (
  r_regionkey  int           NOT NULL,
  r_name       varchar(25)   NOT NULL,
  r_comment    varchar(152)  NOT NULL
);

-- name: nation
CREATE TABLE dbo.nation (
  n_nationkey  int           NOT NULL,
  n_name       varchar(25)   NOT NULL,
  n_regionkey  int           NOT NULL,
  n_comment    varchar(152)  NOT NULL
);

-- name: supplier
CREATE TABLE dbo.supplier (
  su_suppkey   int           NOT NULL,
  su_name      varchar(25)   NOT NULL,
  su_address   varchar(40)   NOT NULL,
  su_nationkey int           NOT NULL,
  su_phone     char(15)      NOT NULL,
  su_acctbal   decimal(12,2) NOT NULL,
  su_comment   varchar(101)  NOT NULL
);
