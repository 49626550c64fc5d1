-- TPROC-C tables for DuckDB (Sledge), built for CH-benCHmark's analytic
-- streams: DuckDB builds, checks and deletes a TPROC-C schema but runs no
-- TPROC-C transactions (driver-duckdb NOT_OFFERED, docs/engines.md).
-- Runnable with: duckdb tprocc.duckdb < tables.sql
--
-- Columns follow the generator's order (core TPROCC_COLUMNS), which is the
-- order of the staged load files that COPY reads. Types as PostgreSQL's
-- tables.sql: INTEGER ids and counts, DECIMAL for money, tax and discount,
-- TIMESTAMP for dates, VARCHAR/CHAR with TPC-C's lengths (DuckDB stores
-- both as VARCHAR and does not pad CHAR). Every column is NOT NULL except
-- h_c_id, o_carrier_id, ol_delivery_d, ol_amount and ol_dist_info. No keys
-- here: keys.sql adds them after the load.

CREATE TABLE item (
  i_id    INTEGER      NOT NULL,
  i_im_id INTEGER      NOT NULL,
  i_name  VARCHAR(24)  NOT NULL,
  i_price DECIMAL(5,2) NOT NULL,
  i_data  VARCHAR(50)  NOT NULL
);

CREATE TABLE warehouse (
  w_id       INTEGER       NOT NULL,
  w_name     VARCHAR(10)   NOT NULL,
  w_street_1 VARCHAR(20)   NOT NULL,
  w_street_2 VARCHAR(20)   NOT NULL,
  w_city     VARCHAR(20)   NOT NULL,
  w_state    CHAR(2)       NOT NULL,
  w_zip      CHAR(9)       NOT NULL,
  w_tax      DECIMAL(4,4)  NOT NULL,
  w_ytd      DECIMAL(16,2) NOT NULL
);

CREATE TABLE stock (
  s_i_id       INTEGER     NOT NULL,
  s_w_id       INTEGER     NOT NULL,
  s_quantity   INTEGER     NOT NULL,
  s_dist_01    CHAR(24)    NOT NULL,
  s_dist_02    CHAR(24)    NOT NULL,
  s_dist_03    CHAR(24)    NOT NULL,
  s_dist_04    CHAR(24)    NOT NULL,
  s_dist_05    CHAR(24)    NOT NULL,
  s_dist_06    CHAR(24)    NOT NULL,
  s_dist_07    CHAR(24)    NOT NULL,
  s_dist_08    CHAR(24)    NOT NULL,
  s_dist_09    CHAR(24)    NOT NULL,
  s_dist_10    CHAR(24)    NOT NULL,
  s_data       VARCHAR(50) NOT NULL,
  s_ytd        INTEGER     NOT NULL,
  s_order_cnt  INTEGER     NOT NULL,
  s_remote_cnt INTEGER     NOT NULL
);

CREATE TABLE district (
  d_id        INTEGER       NOT NULL,
  d_w_id      INTEGER       NOT NULL,
  d_name      VARCHAR(10)   NOT NULL,
  d_street_1  VARCHAR(20)   NOT NULL,
  d_street_2  VARCHAR(20)   NOT NULL,
  d_city      VARCHAR(20)   NOT NULL,
  d_state     CHAR(2)       NOT NULL,
  d_zip       CHAR(9)       NOT NULL,
  d_tax       DECIMAL(4,4)  NOT NULL,
  d_ytd       DECIMAL(12,2) NOT NULL,
  d_next_o_id INTEGER       NOT NULL
);

CREATE TABLE customer (
  c_id           INTEGER       NOT NULL,
  c_d_id         INTEGER       NOT NULL,
  c_w_id         INTEGER       NOT NULL,
  c_first        VARCHAR(16)   NOT NULL,
  c_middle       CHAR(2)       NOT NULL,
  c_last         VARCHAR(16)   NOT NULL,
  c_street_1     VARCHAR(20)   NOT NULL,
  c_street_2     VARCHAR(20)   NOT NULL,
  c_city         VARCHAR(20)   NOT NULL,
  c_state        CHAR(2)       NOT NULL,
  c_zip          CHAR(9)       NOT NULL,
  c_phone        CHAR(16)      NOT NULL,
  c_since        TIMESTAMP     NOT NULL,
  c_credit       CHAR(2)       NOT NULL,
  c_credit_lim   DECIMAL(12,2) NOT NULL,
  c_discount     DECIMAL(4,4)  NOT NULL,
  c_balance      DECIMAL(12,2) NOT NULL,
  c_ytd_payment  DECIMAL(12,2) NOT NULL,
  c_payment_cnt  INTEGER       NOT NULL,
  c_delivery_cnt INTEGER       NOT NULL,
  c_data         VARCHAR(500)  NOT NULL
);

CREATE TABLE history (
  h_c_id   INTEGER,
  h_c_d_id INTEGER      NOT NULL,
  h_c_w_id INTEGER      NOT NULL,
  h_d_id   INTEGER      NOT NULL,
  h_w_id   INTEGER      NOT NULL,
  h_date   TIMESTAMP    NOT NULL,
  h_amount DECIMAL(6,2) NOT NULL,
  h_data   VARCHAR(24)  NOT NULL
);

CREATE TABLE orders (
  o_id         INTEGER   NOT NULL,
  o_d_id       INTEGER   NOT NULL,
  o_w_id       INTEGER   NOT NULL,
  o_c_id       INTEGER   NOT NULL,
  o_entry_d    TIMESTAMP NOT NULL,
  o_carrier_id INTEGER,
  o_ol_cnt     INTEGER   NOT NULL,
  o_all_local  INTEGER   NOT NULL
);

CREATE TABLE new_order (
  no_o_id INTEGER NOT NULL,
  no_d_id INTEGER NOT NULL,
  no_w_id INTEGER NOT NULL
);

CREATE TABLE order_line (
  ol_o_id        INTEGER      NOT NULL,
  ol_d_id        INTEGER      NOT NULL,
  ol_w_id        INTEGER      NOT NULL,
  ol_number      INTEGER      NOT NULL,
  ol_i_id        INTEGER      NOT NULL,
  ol_supply_w_id INTEGER      NOT NULL,
  ol_delivery_d  TIMESTAMP,
  ol_quantity    INTEGER      NOT NULL,
  ol_amount      DECIMAL(6,2),
  ol_dist_info   CHAR(24)
);
