-- TPROC-H tables for Db2 LUW (hammerdb.md §10.1 columns), written for
-- Sledge: DECIMAL, CHAR, VARCHAR and DATE, in the current schema (the
-- connecting user's). No keys: they come after the load (keys.sql).
-- Columns in the generator's order (core TPROCH_COLUMNS).
--   db2 connect to tpch user db2inst1 && db2 -tvf tables.sql

-- name: region
CREATE TABLE region (
  r_regionkey     INTEGER       NOT NULL,
  r_name          CHAR(25)      NOT NULL,
  r_comment       VARCHAR(152)  NOT NULL
);

-- name: nation
CREATE TABLE nation (
  n_nationkey     INTEGER       NOT NULL,
  n_name          CHAR(25)      NOT NULL,
  n_regionkey     INTEGER       NOT NULL,
  n_comment       VARCHAR(152)  NOT NULL
);

-- name: supplier
CREATE TABLE supplier (
  s_suppkey       INTEGER       NOT NULL,
  s_name          CHAR(25)      NOT NULL,
  s_address       VARCHAR(40)   NOT NULL,
  s_nationkey     INTEGER       NOT NULL,
  s_phone         CHAR(15)      NOT NULL,
  s_acctbal       DECIMAL(15,2) NOT NULL,
  s_comment       VARCHAR(102)  NOT NULL
);

-- name: customer
CREATE TABLE customer (
  c_custkey       INTEGER       NOT NULL,
  c_name          VARCHAR(25)   NOT NULL,
  c_address       VARCHAR(40)   NOT NULL,
  c_nationkey     INTEGER       NOT NULL,
  c_phone         CHAR(15)      NOT NULL,
  c_acctbal       DECIMAL(15,2) NOT NULL,
  c_mktsegment    CHAR(10)      NOT NULL,
  c_comment       VARCHAR(118)  NOT NULL
);

-- name: part
CREATE TABLE part (
  p_partkey       INTEGER       NOT NULL,
  p_name          VARCHAR(55)   NOT NULL,
  p_mfgr          CHAR(25)      NOT NULL,
  p_brand         CHAR(10)      NOT NULL,
  p_type          VARCHAR(25)   NOT NULL,
  p_size          INTEGER       NOT NULL,
  p_container     CHAR(10)      NOT NULL,
  p_retailprice   DECIMAL(15,2) NOT NULL,
  p_comment       VARCHAR(23)   NOT NULL
);

-- name: partsupp
CREATE TABLE partsupp (
  ps_partkey      INTEGER       NOT NULL,
  ps_suppkey      INTEGER       NOT NULL,
  ps_availqty     INTEGER       NOT NULL,
  ps_supplycost   DECIMAL(15,2) NOT NULL,
  ps_comment      VARCHAR(199)  NOT NULL
);

-- name: orders
CREATE TABLE orders (
  o_orderkey      BIGINT        NOT NULL,
  o_custkey       INTEGER       NOT NULL,
  o_orderstatus   CHAR(1)       NOT NULL,
  o_totalprice    DECIMAL(15,2) NOT NULL,
  o_orderdate     DATE          NOT NULL,
  o_orderpriority CHAR(15)      NOT NULL,
  o_clerk         CHAR(15)      NOT NULL,
  o_shippriority  INTEGER       NOT NULL,
  o_comment       VARCHAR(79)   NOT NULL
);

-- name: lineitem
CREATE TABLE lineitem (
  l_orderkey      BIGINT        NOT NULL,
  l_partkey       INTEGER       NOT NULL,
  l_suppkey       INTEGER       NOT NULL,
  l_linenumber    INTEGER       NOT NULL,
  l_quantity      DECIMAL(15,2) NOT NULL,
  l_extendedprice DECIMAL(15,2) NOT NULL,
  l_discount      DECIMAL(15,2) NOT NULL,
  l_tax           DECIMAL(15,2) NOT NULL,
  l_returnflag    CHAR(1)       NOT NULL,
  l_linestatus    CHAR(1)       NOT NULL,
  l_shipdate      DATE          NOT NULL,
  l_commitdate    DATE          NOT NULL,
  l_receiptdate   DATE          NOT NULL,
  l_shipinstruct  CHAR(25)      NOT NULL,
  l_shipmode      CHAR(10)      NOT NULL,
  l_comment       VARCHAR(44)   NOT NULL
);
