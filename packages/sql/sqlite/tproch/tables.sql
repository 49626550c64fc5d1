-- TPROC-H tables for SQLite (Sledge). Runnable with: sqlite3 tpch.sqlite < tables.sql
--
-- Columns follow the TPC-H specification's order (core TPROCH_COLUMNS), the
-- order the generator emits and the loader names. SQLite types by storage
-- class: INTEGER for keys and counts, REAL for money, quantities, discounts
-- and taxes (two decimals), TEXT for names, comments and dates. Dates are
-- 'YYYY-MM-DD' text: they compare and sort as dates, and date() does the
-- arithmetic the queries need. Lengths are those of the other engines
-- (CHAR/VARCHAR n), kept as documentation; SQLite does not enforce them.
-- No keys here: keys.sql adds them after the load.

CREATE TABLE region (
  r_regionkey INTEGER NOT NULL,
  r_name      TEXT    NOT NULL, -- CHAR(25)
  r_comment   TEXT              -- VARCHAR(152)
);

CREATE TABLE nation (
  n_nationkey INTEGER NOT NULL,
  n_name      TEXT    NOT NULL, -- CHAR(25)
  n_regionkey INTEGER NOT NULL,
  n_comment   TEXT              -- VARCHAR(152)
);

CREATE TABLE supplier (
  s_suppkey   INTEGER NOT NULL,
  s_name      TEXT    NOT NULL, -- CHAR(25)
  s_address   TEXT    NOT NULL, -- VARCHAR(40)
  s_nationkey INTEGER NOT NULL,
  s_phone     TEXT    NOT NULL, -- CHAR(15)
  s_acctbal   REAL    NOT NULL,
  s_comment   TEXT    NOT NULL  -- VARCHAR(102)
);

CREATE TABLE customer (
  c_custkey    INTEGER NOT NULL,
  c_name       TEXT    NOT NULL, -- VARCHAR(25)
  c_address    TEXT    NOT NULL, -- VARCHAR(40)
  c_nationkey  INTEGER NOT NULL,
  c_phone      TEXT    NOT NULL, -- CHAR(15)
  c_acctbal    REAL    NOT NULL,
  c_mktsegment TEXT    NOT NULL, -- CHAR(10)
  c_comment    TEXT    NOT NULL  -- VARCHAR(118)
);

CREATE TABLE part (
  p_partkey     INTEGER NOT NULL,
  p_name        TEXT    NOT NULL, -- VARCHAR(55)
  p_mfgr        TEXT    NOT NULL, -- CHAR(25)
  p_brand       TEXT    NOT NULL, -- CHAR(10)
  p_type        TEXT    NOT NULL, -- VARCHAR(25)
  p_size        INTEGER NOT NULL,
  p_container   TEXT    NOT NULL, -- CHAR(10)
  p_retailprice REAL    NOT NULL,
  p_comment     TEXT    NOT NULL  -- VARCHAR(23)
);

CREATE TABLE partsupp (
  ps_partkey    INTEGER NOT NULL,
  ps_suppkey    INTEGER NOT NULL,
  ps_availqty   INTEGER NOT NULL,
  ps_supplycost REAL    NOT NULL,
  ps_comment    TEXT    NOT NULL  -- VARCHAR(199)
);

CREATE TABLE orders (
  o_orderkey      INTEGER NOT NULL,
  o_custkey       INTEGER NOT NULL,
  o_orderstatus   TEXT    NOT NULL, -- CHAR(1)
  o_totalprice    REAL    NOT NULL,
  o_orderdate     TEXT    NOT NULL, -- DATE 'YYYY-MM-DD'
  o_orderpriority TEXT    NOT NULL, -- CHAR(15)
  o_clerk         TEXT    NOT NULL, -- CHAR(15)
  o_shippriority  INTEGER NOT NULL,
  o_comment       TEXT    NOT NULL  -- VARCHAR(79)
);

CREATE TABLE lineitem (
  l_orderkey      INTEGER NOT NULL,
  l_partkey       INTEGER NOT NULL,
  l_suppkey       INTEGER NOT NULL,
  l_linenumber    INTEGER NOT NULL,
  l_quantity      REAL    NOT NULL,
  l_extendedprice REAL    NOT NULL,
  l_discount      REAL    NOT NULL,
  l_tax           REAL    NOT NULL,
  l_returnflag    TEXT    NOT NULL, -- CHAR(1)
  l_linestatus    TEXT    NOT NULL, -- CHAR(1)
  l_shipdate      TEXT    NOT NULL, -- DATE
  l_commitdate    TEXT    NOT NULL, -- DATE
  l_receiptdate   TEXT    NOT NULL, -- DATE
  l_shipinstruct  TEXT    NOT NULL, -- CHAR(25)
  l_shipmode      TEXT    NOT NULL, -- CHAR(10)
  l_comment       TEXT    NOT NULL  -- VARCHAR(44)
);
