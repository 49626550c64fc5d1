-- TPROC-H tables for PostgreSQL (Sledge), created in the TPC-H database as
-- its owner. Runnable with: psql -d tpch -f tables.sql
--
-- Types: integer keys (bigint for the keys that pass 2^31 at large scale
-- factors: supplier, customer, part, order), NUMERIC(15,2) for money,
-- quantities, discounts and taxes, DATE for dates, CHAR/VARCHAR with the
-- specification's lengths. No keys here: keys.sql adds them after the load.
--
-- Column order is physical, not the specification's: the fixed-width columns
-- (BIGINT, then DATE and INTEGER) come first, then the variable-width ones
-- (NUMERIC, CHAR, VARCHAR) in the specification's order. PostgreSQL reads a
-- row's columns left to right and knows the offset of a column only up to
-- the first variable-width one, so the dates that most queries filter on and
-- the keys they join on are read without walking the numerics and strings
-- before them. Measured on SF 1, Q14 and Q6 (which filter lineitem on
-- l_shipdate) took 0.90x and 0.93x the time, Q1 1.02x (docs/benchmarks.md,
-- "TPROC-H column order on PostgreSQL").
-- The COPY data keeps the specification's order (core TPROCH_COLUMNS); the
-- loader's and refresh.sql's column lists name the columns.

CREATE TABLE region (
  r_regionkey INTEGER       NOT NULL,
  r_name      CHAR(25)      NOT NULL,
  r_comment   VARCHAR(152)
);

CREATE TABLE nation (
  n_nationkey INTEGER       NOT NULL,
  n_regionkey INTEGER       NOT NULL,
  n_name      CHAR(25)      NOT NULL,
  n_comment   VARCHAR(152)
);

CREATE TABLE supplier (
  s_suppkey   BIGINT        NOT NULL,
  s_nationkey INTEGER       NOT NULL,
  s_name      CHAR(25)      NOT NULL,
  s_address   VARCHAR(40)   NOT NULL,
  s_phone     CHAR(15)      NOT NULL,
  s_acctbal   NUMERIC(15,2) NOT NULL,
  s_comment   VARCHAR(102)  NOT NULL
);

CREATE TABLE customer (
  c_custkey    BIGINT        NOT NULL,
  c_nationkey  INTEGER       NOT NULL,
  c_name       VARCHAR(25)   NOT NULL,
  c_address    VARCHAR(40)   NOT NULL,
  c_phone      CHAR(15)      NOT NULL,
  c_acctbal    NUMERIC(15,2) NOT NULL,
  c_mktsegment CHAR(10)      NOT NULL,
  c_comment    VARCHAR(118)  NOT NULL
);

CREATE TABLE part (
  p_partkey     BIGINT        NOT NULL,
  p_size        INTEGER       NOT NULL,
  p_name        VARCHAR(55)   NOT NULL,
  p_mfgr        CHAR(25)      NOT NULL,
  p_brand       CHAR(10)      NOT NULL,
  p_type        VARCHAR(25)   NOT NULL,
  p_container   CHAR(10)      NOT NULL,
  p_retailprice NUMERIC(15,2) NOT NULL,
  p_comment     VARCHAR(23)   NOT NULL
);

CREATE TABLE partsupp (
  ps_partkey    BIGINT        NOT NULL,
  ps_suppkey    BIGINT        NOT NULL,
  ps_availqty   INTEGER       NOT NULL,
  ps_supplycost NUMERIC(15,2) NOT NULL,
  ps_comment    VARCHAR(199)  NOT NULL
);

CREATE TABLE orders (
  o_orderkey      BIGINT        NOT NULL,
  o_custkey       BIGINT        NOT NULL,
  o_orderdate     DATE          NOT NULL,
  o_shippriority  INTEGER       NOT NULL,
  o_orderstatus   CHAR(1)       NOT NULL,
  o_totalprice    NUMERIC(15,2) NOT NULL,
  o_orderpriority CHAR(15)      NOT NULL,
  o_clerk         CHAR(15)      NOT NULL,
  o_comment       VARCHAR(79)   NOT NULL
);

CREATE TABLE lineitem (
  l_orderkey      BIGINT        NOT NULL,
  l_partkey       BIGINT        NOT NULL,
  l_suppkey       BIGINT        NOT NULL,
  l_shipdate      DATE          NOT NULL,
  l_commitdate    DATE          NOT NULL,
  l_receiptdate   DATE          NOT NULL,
  l_linenumber    INTEGER       NOT NULL,
  l_quantity      NUMERIC(15,2) NOT NULL,
  l_extendedprice NUMERIC(15,2) NOT NULL,
  l_discount      NUMERIC(15,2) NOT NULL,
  l_tax           NUMERIC(15,2) NOT NULL,
  l_returnflag    CHAR(1)       NOT NULL,
  l_linestatus    CHAR(1)       NOT NULL,
  l_shipinstruct  CHAR(25)      NOT NULL,
  l_shipmode      CHAR(10)      NOT NULL,
  l_comment       VARCHAR(44)   NOT NULL
);
