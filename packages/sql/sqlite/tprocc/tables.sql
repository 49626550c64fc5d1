-- TPROC-C tables for SQLite (Sledge). Runnable with: sqlite3 tprocc.sqlite < tables.sql
--
-- Types. SQLite has five storage classes; we use INTEGER for ids and counts,
-- TEXT for strings and timestamps ('YYYY-MM-DD HH:MM:SS', UTC), and REAL for
-- money, tax and discount.
--
-- Money. Values are REAL (IEEE double) holding amounts with two decimals.
-- Every statement that changes a money column rounds the result with
-- ROUND(x, 2), so a balance is always the double nearest to a whole number
-- of cents and rounding errors never accumulate: after any number of
-- payments w_ytd = sum(d_ytd) holds to the cent (check C1). Doubles are exact
-- for whole cents up to 2^53 cents (about 9.0e13 currency units), far above
-- any TPROC-C total. REAL keeps the values readable in the sqlite3 shell and
-- lets the transactions do the arithmetic in SQL.
--
-- Layout. Primary keys are declared here, at CREATE time, and the tables
-- whose rows are small are WITHOUT ROWID (clustered on the primary key):
-- the generator emits rows in key order, so loading into the clustered key
-- is an append, and a transaction then reads a row with one B-tree descent.
-- STOCK (~310 bytes a row) and CUSTOMER (~650 bytes) are ordinary rowid
-- tables with their key as a PRIMARY KEY index: SQLite advises WITHOUT
-- ROWID only for rows under ~1/20 of a page. HISTORY has no key.
-- Measured choices and figures: see packages/driver-sqlite/README.md.

CREATE TABLE warehouse (
  w_id       INTEGER NOT NULL,
  w_name     TEXT    NOT NULL,
  w_street_1 TEXT    NOT NULL,
  w_street_2 TEXT    NOT NULL,
  w_city     TEXT    NOT NULL,
  w_state    TEXT    NOT NULL,
  w_zip      TEXT    NOT NULL,
  w_tax      REAL    NOT NULL,
  w_ytd      REAL    NOT NULL,
  PRIMARY KEY (w_id)
) WITHOUT ROWID;

CREATE TABLE district (
  d_w_id      INTEGER NOT NULL,
  d_id        INTEGER NOT NULL,
  d_next_o_id INTEGER NOT NULL,
  d_ytd       REAL    NOT NULL,
  d_tax       REAL    NOT NULL,
  d_name      TEXT    NOT NULL,
  d_street_1  TEXT    NOT NULL,
  d_street_2  TEXT    NOT NULL,
  d_city      TEXT    NOT NULL,
  d_state     TEXT    NOT NULL,
  d_zip       TEXT    NOT NULL,
  PRIMARY KEY (d_w_id, d_id)
) WITHOUT ROWID;

CREATE TABLE item (
  i_id    INTEGER NOT NULL,
  i_im_id INTEGER NOT NULL,
  i_name  TEXT    NOT NULL,
  i_price REAL    NOT NULL,
  i_data  TEXT    NOT NULL,
  PRIMARY KEY (i_id)
) WITHOUT ROWID;

CREATE TABLE stock (
  s_w_id       INTEGER NOT NULL,
  s_i_id       INTEGER NOT NULL,
  s_quantity   INTEGER NOT NULL,
  s_ytd        INTEGER NOT NULL,
  s_order_cnt  INTEGER NOT NULL,
  s_remote_cnt INTEGER NOT NULL,
  s_dist_01    TEXT    NOT NULL,
  s_dist_02    TEXT    NOT NULL,
  s_dist_03    TEXT    NOT NULL,
  s_dist_04    TEXT    NOT NULL,
  s_dist_05    TEXT    NOT NULL,
  s_dist_06    TEXT    NOT NULL,
  s_dist_07    TEXT    NOT NULL,
  s_dist_08    TEXT    NOT NULL,
  s_dist_09    TEXT    NOT NULL,
  s_dist_10    TEXT    NOT NULL,
  s_data       TEXT    NOT NULL,
  PRIMARY KEY (s_w_id, s_i_id)
);

CREATE TABLE customer (
  c_w_id         INTEGER NOT NULL,
  c_d_id         INTEGER NOT NULL,
  c_id           INTEGER NOT NULL,
  c_first        TEXT    NOT NULL,
  c_middle       TEXT    NOT NULL,
  c_last         TEXT    NOT NULL,
  c_street_1     TEXT    NOT NULL,
  c_street_2     TEXT    NOT NULL,
  c_city         TEXT    NOT NULL,
  c_state        TEXT    NOT NULL,
  c_zip          TEXT    NOT NULL,
  c_phone        TEXT    NOT NULL,
  c_since        TEXT    NOT NULL,
  c_credit       TEXT    NOT NULL,
  c_credit_lim   REAL    NOT NULL,
  c_discount     REAL    NOT NULL,
  c_balance      REAL    NOT NULL,
  c_ytd_payment  REAL    NOT NULL,
  c_payment_cnt  INTEGER NOT NULL,
  c_delivery_cnt INTEGER NOT NULL,
  c_data         TEXT    NOT NULL,
  PRIMARY KEY (c_w_id, c_d_id, c_id)
);

CREATE TABLE history (
  h_c_id   INTEGER,
  h_c_d_id INTEGER NOT NULL,
  h_c_w_id INTEGER NOT NULL,
  h_d_id   INTEGER NOT NULL,
  h_w_id   INTEGER NOT NULL,
  h_date   TEXT    NOT NULL,
  h_amount REAL    NOT NULL,
  h_data   TEXT    NOT NULL
);

CREATE TABLE orders (
  o_w_id       INTEGER NOT NULL,
  o_d_id       INTEGER NOT NULL,
  o_id         INTEGER NOT NULL,
  o_c_id       INTEGER NOT NULL,
  o_entry_d    TEXT    NOT NULL,
  o_carrier_id INTEGER,
  o_ol_cnt     INTEGER NOT NULL,
  o_all_local  INTEGER NOT NULL,
  PRIMARY KEY (o_w_id, o_d_id, o_id)
) WITHOUT ROWID;

CREATE TABLE new_order (
  no_w_id INTEGER NOT NULL,
  no_d_id INTEGER NOT NULL,
  no_o_id INTEGER NOT NULL,
  PRIMARY KEY (no_w_id, no_d_id, no_o_id)
) WITHOUT ROWID;

CREATE TABLE order_line (
  ol_w_id        INTEGER NOT NULL,
  ol_d_id        INTEGER NOT NULL,
  ol_o_id        INTEGER NOT NULL,
  ol_number      INTEGER NOT NULL,
  ol_i_id        INTEGER NOT NULL,
  ol_supply_w_id INTEGER NOT NULL,
  ol_delivery_d  TEXT,
  ol_quantity    INTEGER NOT NULL,
  ol_amount      REAL,
  ol_dist_info   TEXT,
  PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
) WITHOUT ROWID;
