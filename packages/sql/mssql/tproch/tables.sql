-- TPROC-H tables for SQL Server (hammerdb.md §10.1 columns), written for
-- Sledge. No keys: primary and foreign keys come after the load (keys.sql).
-- Columns are listed in the generator's order (core TPROCH_COLUMNS).
-- Run in the TPROC-H database:  sqlcmd -S host -U sa -d tpch -i tables.sql

-- name: region
CREATE TABLE dbo.region (
  r_regionkey     int           NOT NULL,
  r_name          char(25)      NOT NULL,
  r_comment       varchar(152)  NOT NULL
);

-- name: nation
CREATE TABLE dbo.nation (
  n_nationkey     int           NOT NULL,
  n_name          char(25)      NOT NULL,
  n_regionkey     int           NOT NULL,
  n_comment       varchar(152)  NOT NULL
);

-- name: supplier
CREATE TABLE dbo.supplier (
  s_suppkey       int           NOT NULL,
  s_name          char(25)      NOT NULL,
  s_address       varchar(40)   NOT NULL,
  s_nationkey     int           NOT NULL,
  s_phone         char(15)      NOT NULL,
  s_acctbal       decimal(15,2) NOT NULL,
  s_comment       varchar(102)  NOT NULL
);

-- name: customer
CREATE TABLE dbo.customer (
  c_custkey       int           NOT NULL,
  c_name          varchar(25)   NOT NULL,
  c_address       varchar(40)   NOT NULL,
  c_nationkey     int           NOT NULL,
  c_phone         char(15)      NOT NULL,
  c_acctbal       decimal(15,2) NOT NULL,
  c_mktsegment    char(10)      NOT NULL,
  c_comment       varchar(118)  NOT NULL
);

-- name: part
CREATE TABLE dbo.part (
  p_partkey       int           NOT NULL,
  p_name          varchar(55)   NOT NULL,
  p_mfgr          char(25)      NOT NULL,
  p_brand         char(10)      NOT NULL,
  p_type          varchar(25)   NOT NULL,
  p_size          int           NOT NULL,
  p_container     char(10)      NOT NULL,
  p_retailprice   decimal(15,2) NOT NULL,
  p_comment       varchar(23)   NOT NULL
);

-- name: partsupp
CREATE TABLE dbo.partsupp (
  ps_partkey      int           NOT NULL,
  ps_suppkey      int           NOT NULL,
  ps_availqty     int           NOT NULL,
  ps_supplycost   decimal(15,2) NOT NULL,
  ps_comment      varchar(199)  NOT NULL
);

-- name: orders
CREATE TABLE dbo.orders (
  o_orderkey      bigint        NOT NULL,
  o_custkey       int           NOT NULL,
  o_orderstatus   char(1)       NOT NULL,
  o_totalprice    decimal(15,2) NOT NULL,
  o_orderdate     date          NOT NULL,
  o_orderpriority char(15)      NOT NULL,
  o_clerk         char(15)      NOT NULL,
  o_shippriority  int           NOT NULL,
  o_comment       varchar(79)   NOT NULL
);

-- name: lineitem
CREATE TABLE dbo.lineitem (
  l_orderkey      bigint        NOT NULL,
  l_partkey       int           NOT NULL,
  l_suppkey       int           NOT NULL,
  l_linenumber    int           NOT NULL,
  l_quantity      decimal(15,2) NOT NULL,
  l_extendedprice decimal(15,2) NOT NULL,
  l_discount      decimal(15,2) NOT NULL,
  l_tax           decimal(15,2) NOT NULL,
  l_returnflag    char(1)       NOT NULL,
  l_linestatus    char(1)       NOT NULL,
  l_shipdate      date          NOT NULL,
  l_commitdate    date          NOT NULL,
  l_receiptdate   date          NOT NULL,
  l_shipinstruct  char(25)      NOT NULL,
  l_shipmode      char(10)      NOT NULL,
  l_comment       varchar(44)   NOT NULL
);
