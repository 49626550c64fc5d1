-- TPROC-H tables for Oracle (hammerdb.md §10.1 columns), written for
-- Sledge: NUMBER, CHAR, VARCHAR2 and DATE. Created by the TPROC-H user
-- (default tpch) in its default tablespace. No keys: they come after the
-- load (keys.sql). Columns in the generator's order (core TPROCH_COLUMNS).
--   sqlplus tpch/tpch@//host:1521/FREEPDB1 @tables.sql

-- name: region
CREATE TABLE region (
  r_regionkey     NUMBER        NOT NULL,
  r_name          CHAR(25)      NOT NULL,
  r_comment       VARCHAR2(152) NOT NULL
);

-- name: nation
CREATE TABLE nation (
  n_nationkey     NUMBER        NOT NULL,
  n_name          CHAR(25)      NOT NULL,
  n_regionkey     NUMBER        NOT NULL,
  n_comment       VARCHAR2(152) NOT NULL
);

-- name: supplier
CREATE TABLE supplier (
  s_suppkey       NUMBER        NOT NULL,
  s_name          CHAR(25)      NOT NULL,
  s_address       VARCHAR2(40)  NOT NULL,
  s_nationkey     NUMBER        NOT NULL,
  s_phone         CHAR(15)      NOT NULL,
  s_acctbal       NUMBER(15,2)  NOT NULL,
  s_comment       VARCHAR2(102) NOT NULL
);

-- name: customer
CREATE TABLE customer (
  c_custkey       NUMBER        NOT NULL,
  c_name          VARCHAR2(25)  NOT NULL,
  c_address       VARCHAR2(40)  NOT NULL,
  c_nationkey     NUMBER        NOT NULL,
  c_phone         CHAR(15)      NOT NULL,
  c_acctbal       NUMBER(15,2)  NOT NULL,
  c_mktsegment    CHAR(10)      NOT NULL,
  c_comment       VARCHAR2(118) NOT NULL
);

-- name: part
CREATE TABLE part (
  p_partkey       NUMBER        NOT NULL,
  p_name          VARCHAR2(55)  NOT NULL,
  p_mfgr          CHAR(25)      NOT NULL,
  p_brand         CHAR(10)      NOT NULL,
  p_type          VARCHAR2(25)  NOT NULL,
  p_size          NUMBER        NOT NULL,
  p_container     CHAR(10)      NOT NULL,
  p_retailprice   NUMBER(15,2)  NOT NULL,
  p_comment       VARCHAR2(23)  NOT NULL
);

-- name: partsupp
CREATE TABLE partsupp (
  ps_partkey      NUMBER        NOT NULL,
  ps_suppkey      NUMBER        NOT NULL,
  ps_availqty     NUMBER        NOT NULL,
  ps_supplycost   NUMBER(15,2)  NOT NULL,
  ps_comment      VARCHAR2(199) NOT NULL
);

-- name: orders
CREATE TABLE orders (
  o_orderkey      NUMBER(12)    NOT NULL,
  o_custkey       NUMBER        NOT NULL,
  o_orderstatus   CHAR(1)       NOT NULL,
  o_totalprice    NUMBER(15,2)  NOT NULL,
  o_orderdate     DATE          NOT NULL,
  o_orderpriority CHAR(15)      NOT NULL,
  o_clerk         CHAR(15)      NOT NULL,
  o_shippriority  NUMBER        NOT NULL,
  o_comment       VARCHAR2(79)  NOT NULL
);

-- name: lineitem
CREATE TABLE lineitem (
  l_orderkey      NUMBER(12)    NOT NULL,
  l_partkey       NUMBER        NOT NULL,
  l_suppkey       NUMBER        NOT NULL,
  l_linenumber    NUMBER        NOT NULL,
  l_quantity      NUMBER(15,2)  NOT NULL,
  l_extendedprice NUMBER(15,2)  NOT NULL,
  l_discount      NUMBER(15,2)  NOT NULL,
  l_tax           NUMBER(15,2)  NOT NULL,
  l_returnflag    CHAR(1)       NOT NULL,
  l_linestatus    CHAR(1)       NOT NULL,
  l_shipdate      DATE          NOT NULL,
  l_commitdate    DATE          NOT NULL,
  l_receiptdate   DATE          NOT NULL,
  l_shipinstruct  CHAR(25)      NOT NULL,
  l_shipmode      CHAR(10)      NOT NULL,
  l_comment       VARCHAR2(44)  NOT NULL
);
