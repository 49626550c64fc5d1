-- TPROC-C tables for Oracle (hammerdb.md §5.1), written for Sledge. Run as
-- the TPROC-C user; &name are SQL*Plus substitution variables:
--   sqlplus tpcc/tpcc@//host:1521/FREEPDB1 @tables.sql
--   (DEFINE default_tablespace=USERS, order_line_tablespace=USERS first)
-- Tables start as heaps; keys and indexes come after the load (indexes.sql).
-- Columns are NOT NULL except h_c_id, o_carrier_id, ol_delivery_d,
-- ol_amount and ol_dist_info. ORDER_LINE lives in its own tablespace.
-- order_line_partitioned is the alternative ORDER_LINE the driver runs
-- instead of order_line when partitioning; by hand, run one of the two.

-- name: warehouse
CREATE TABLE warehouse (
  w_id       NUMBER(6)     NOT NULL,
  w_ytd      NUMBER(16,2)  NOT NULL,
  w_tax      NUMBER(4,4)   NOT NULL,
  w_name     VARCHAR2(10)  NOT NULL,
  w_street_1 VARCHAR2(20)  NOT NULL,
  w_street_2 VARCHAR2(20)  NOT NULL,
  w_city     VARCHAR2(20)  NOT NULL,
  w_state    CHAR(2)       NOT NULL,
  w_zip      CHAR(9)       NOT NULL
) TABLESPACE &default_tablespace;

-- name: district
CREATE TABLE district (
  d_w_id      NUMBER(6)     NOT NULL,
  d_id        NUMBER(2)     NOT NULL,
  d_next_o_id NUMBER(9)     NOT NULL,
  d_ytd       NUMBER(12,2)  NOT NULL,
  d_tax       NUMBER(4,4)   NOT NULL,
  d_name      VARCHAR2(10)  NOT NULL,
  d_street_1  VARCHAR2(20)  NOT NULL,
  d_street_2  VARCHAR2(20)  NOT NULL,
  d_city      VARCHAR2(20)  NOT NULL,
  d_state     CHAR(2)       NOT NULL,
  d_zip       CHAR(9)       NOT NULL
) TABLESPACE &default_tablespace;

-- name: customer
CREATE TABLE customer (
  c_w_id         NUMBER(6)      NOT NULL,
  c_d_id         NUMBER(2)      NOT NULL,
  c_id           NUMBER(5)      NOT NULL,
  c_first        VARCHAR2(16)   NOT NULL,
  c_middle       CHAR(2)        NOT NULL,
  c_last         VARCHAR2(16)   NOT NULL,
  c_street_1     VARCHAR2(20)   NOT NULL,
  c_street_2     VARCHAR2(20)   NOT NULL,
  c_city         VARCHAR2(20)   NOT NULL,
  c_state        CHAR(2)        NOT NULL,
  c_zip          CHAR(9)        NOT NULL,
  c_phone        CHAR(16)       NOT NULL,
  c_since        DATE           NOT NULL,
  c_credit       CHAR(2)        NOT NULL,
  c_credit_lim   NUMBER(12,2)   NOT NULL,
  c_discount     NUMBER(4,4)    NOT NULL,
  c_balance      NUMBER(12,2)   NOT NULL,
  c_ytd_payment  NUMBER(12,2)   NOT NULL,
  c_payment_cnt  NUMBER(5)      NOT NULL,
  c_delivery_cnt NUMBER(5)      NOT NULL,
  c_data         VARCHAR2(500)  NOT NULL
) TABLESPACE &default_tablespace;

-- name: history
CREATE TABLE history (
  h_c_id   NUMBER(5),
  h_c_d_id NUMBER(2)     NOT NULL,
  h_c_w_id NUMBER(6)     NOT NULL,
  h_d_id   NUMBER(2)     NOT NULL,
  h_w_id   NUMBER(6)     NOT NULL,
  h_date   DATE          NOT NULL,
  h_amount NUMBER(6,2)   NOT NULL,
  h_data   VARCHAR2(24)  NOT NULL
) TABLESPACE &default_tablespace;

-- name: item
CREATE TABLE item (
  i_id    NUMBER(6)     NOT NULL,
  i_im_id NUMBER(6)     NOT NULL,
  i_name  VARCHAR2(24)  NOT NULL,
  i_price NUMBER(5,2)   NOT NULL,
  i_data  VARCHAR2(50)  NOT NULL
) TABLESPACE &default_tablespace;

-- name: stock
CREATE TABLE stock (
  s_i_id       NUMBER(6)     NOT NULL,
  s_w_id       NUMBER(6)     NOT NULL,
  s_quantity   NUMBER(6)     NOT NULL,
  s_ytd        NUMBER(10)    NOT NULL,
  s_order_cnt  NUMBER(6)     NOT NULL,
  s_remote_cnt NUMBER(6)     NOT NULL,
  s_dist_01    CHAR(24)      NOT NULL,
  s_dist_02    CHAR(24)      NOT NULL,
  s_dist_03    CHAR(24)      NOT NULL,
  s_dist_04    CHAR(24)      NOT NULL,
  s_dist_05    CHAR(24)      NOT NULL,
  s_dist_06    CHAR(24)      NOT NULL,
  s_dist_07    CHAR(24)      NOT NULL,
  s_dist_08    CHAR(24)      NOT NULL,
  s_dist_09    CHAR(24)      NOT NULL,
  s_dist_10    CHAR(24)      NOT NULL,
  s_data       VARCHAR2(50)  NOT NULL
) TABLESPACE &default_tablespace;

-- name: orders
CREATE TABLE orders (
  o_w_id       NUMBER(6)  NOT NULL,
  o_d_id       NUMBER(2)  NOT NULL,
  o_id         NUMBER(9)  NOT NULL,
  o_c_id       NUMBER(5)  NOT NULL,
  o_entry_d    DATE       NOT NULL,
  o_carrier_id NUMBER(2),
  o_ol_cnt     NUMBER(2)  NOT NULL,
  o_all_local  NUMBER(1)  NOT NULL
) TABLESPACE &default_tablespace;

-- name: new_order
CREATE TABLE new_order (
  no_w_id NUMBER(6)  NOT NULL,
  no_d_id NUMBER(2)  NOT NULL,
  no_o_id NUMBER(9)  NOT NULL
) TABLESPACE &default_tablespace;

-- name: order_line
CREATE TABLE order_line (
  ol_w_id        NUMBER(6)    NOT NULL,
  ol_d_id        NUMBER(2)    NOT NULL,
  ol_o_id        NUMBER(9)    NOT NULL,
  ol_number      NUMBER(2)    NOT NULL,
  ol_i_id        NUMBER(6)    NOT NULL,
  ol_supply_w_id NUMBER(6)    NOT NULL,
  ol_delivery_d  DATE,
  ol_quantity    NUMBER(2)    NOT NULL,
  ol_amount      NUMBER(6,2),
  ol_dist_info   CHAR(24)
) TABLESPACE &order_line_tablespace;

-- name: order_line_partitioned
-- ORDER_LINE hash-partitioned by warehouse: used instead of order_line when
-- target.partition is on and W >= 200, with &partitions = floor(W/100).
CREATE TABLE order_line (
  ol_w_id        NUMBER(6)    NOT NULL,
  ol_d_id        NUMBER(2)    NOT NULL,
  ol_o_id        NUMBER(9)    NOT NULL,
  ol_number      NUMBER(2)    NOT NULL,
  ol_i_id        NUMBER(6)    NOT NULL,
  ol_supply_w_id NUMBER(6)    NOT NULL,
  ol_delivery_d  DATE,
  ol_quantity    NUMBER(2)    NOT NULL,
  ol_amount      NUMBER(6,2),
  ol_dist_info   CHAR(24)
) TABLESPACE &order_line_tablespace
  PARTITION BY HASH (ol_w_id) PARTITIONS &partitions STORE IN (&order_line_tablespace);
