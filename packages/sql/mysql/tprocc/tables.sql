-- TPROC-C tables for MySQL 8 and MariaDB 10.6+ (MariaDB reads this file too).
--
-- A template: the driver fills the placeholders before running it.
--   {{storage_engine}}       target.storageEngine (validated: letters, digits, _)
--   {{history_pk}}           options.sql "history_pk" when target.historyPk, else empty
--   {{order_line_partition}} options.sql "order_line_partition" when target.partition and W >= 200, else empty
-- By hand:
--   sed -e 's/{{storage_engine}}/InnoDB/' -e 's/{{[a-z_]*}}//' tables.sql | mysql tpcc
--
-- Types: INT/DECIMAL/DATETIME, d_id-like columns TINYINT. w_ytd is
-- DECIMAL(16,2) (as in the PostgreSQL schema: 12 digits can overflow within
-- hours on a small, busy schema) and the running counters (c_payment_cnt,
-- c_delivery_cnt, s_order_cnt, s_remote_cnt) are INT, so long runs cannot
-- hit "out of range" in strict mode. Character data is
-- latin1 with binary collation (all generated text is ASCII, comparisons
-- are byte-wise like HammerDB's BINARY varchars).
-- Departure from HammerDB: ol_amount is DECIMAL(6,2) as the TPC-C
-- specification says (HammerDB declares it INT and so drops the cents).
-- Primary keys are declared here: rows are generated and loaded in key
-- order, so InnoDB appends to its clustered index; adding them after the
-- load would rebuild every table. Secondary keys come later (indexes.sql).

CREATE TABLE warehouse (
  w_id INT NOT NULL,
  w_ytd DECIMAL(16,2) NOT NULL,
  w_tax DECIMAL(4,4) NOT NULL,
  w_name VARCHAR(10) NOT NULL,
  w_street_1 VARCHAR(20) NOT NULL,
  w_street_2 VARCHAR(20) NOT NULL,
  w_city VARCHAR(20) NOT NULL,
  w_state CHAR(2) NOT NULL,
  w_zip CHAR(9) NOT NULL,
  PRIMARY KEY (w_id)
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE district (
  d_w_id INT NOT NULL,
  d_id TINYINT NOT NULL,
  d_next_o_id INT NOT NULL,
  d_ytd DECIMAL(12,2) NOT NULL,
  d_tax DECIMAL(4,4) NOT NULL,
  d_name VARCHAR(10) NOT NULL,
  d_street_1 VARCHAR(20) NOT NULL,
  d_street_2 VARCHAR(20) NOT NULL,
  d_city VARCHAR(20) NOT NULL,
  d_state CHAR(2) NOT NULL,
  d_zip CHAR(9) NOT NULL,
  PRIMARY KEY (d_w_id, d_id)
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE customer (
  c_w_id INT NOT NULL,
  c_d_id TINYINT NOT NULL,
  c_id INT NOT NULL,
  c_first VARCHAR(16) NOT NULL,
  c_middle CHAR(2) NOT NULL,
  c_last VARCHAR(16) NOT NULL,
  c_street_1 VARCHAR(20) NOT NULL,
  c_street_2 VARCHAR(20) NOT NULL,
  c_city VARCHAR(20) NOT NULL,
  c_state CHAR(2) NOT NULL,
  c_zip CHAR(9) NOT NULL,
  c_phone CHAR(16) NOT NULL,
  c_since DATETIME NOT NULL,
  c_credit CHAR(2) NOT NULL,
  c_credit_lim DECIMAL(12,2) NOT NULL,
  c_discount DECIMAL(4,4) NOT NULL,
  c_balance DECIMAL(12,2) NOT NULL,
  c_ytd_payment DECIMAL(12,2) NOT NULL,
  c_payment_cnt INT NOT NULL,
  c_delivery_cnt INT NOT NULL,
  c_data VARCHAR(500) NOT NULL,
  PRIMARY KEY (c_w_id, c_d_id, c_id)
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE history (
  {{history_pk}}
  h_c_id INT NULL,
  h_c_d_id TINYINT NOT NULL,
  h_c_w_id INT NOT NULL,
  h_d_id TINYINT NOT NULL,
  h_w_id INT NOT NULL,
  h_date DATETIME NOT NULL,
  h_amount DECIMAL(6,2) NOT NULL,
  h_data VARCHAR(24) NOT NULL
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE item (
  i_id INT NOT NULL,
  i_im_id INT NOT NULL,
  i_name VARCHAR(24) NOT NULL,
  i_price DECIMAL(5,2) NOT NULL,
  i_data VARCHAR(50) NOT NULL,
  PRIMARY KEY (i_id)
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE stock (
  s_w_id INT NOT NULL,
  s_i_id INT NOT NULL,
  s_quantity SMALLINT NOT NULL,
  s_ytd INT NOT NULL,
  s_order_cnt INT NOT NULL,
  s_remote_cnt INT NOT NULL,
  s_dist_01 CHAR(24) NOT NULL,
  s_dist_02 CHAR(24) NOT NULL,
  s_dist_03 CHAR(24) NOT NULL,
  s_dist_04 CHAR(24) NOT NULL,
  s_dist_05 CHAR(24) NOT NULL,
  s_dist_06 CHAR(24) NOT NULL,
  s_dist_07 CHAR(24) NOT NULL,
  s_dist_08 CHAR(24) NOT NULL,
  s_dist_09 CHAR(24) NOT NULL,
  s_dist_10 CHAR(24) NOT NULL,
  s_data VARCHAR(50) NOT NULL,
  PRIMARY KEY (s_w_id, s_i_id)
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE new_order (
  no_w_id INT NOT NULL,
  no_d_id TINYINT NOT NULL,
  no_o_id INT NOT NULL,
  PRIMARY KEY (no_w_id, no_d_id, no_o_id)
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE orders (
  o_w_id INT NOT NULL,
  o_d_id TINYINT NOT NULL,
  o_id INT NOT NULL,
  o_c_id INT NOT NULL,
  o_carrier_id TINYINT NULL,
  o_ol_cnt TINYINT NOT NULL,
  o_all_local TINYINT NOT NULL,
  o_entry_d DATETIME NOT NULL,
  PRIMARY KEY (o_w_id, o_d_id, o_id)
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin;

CREATE TABLE order_line (
  ol_w_id INT NOT NULL,
  ol_d_id TINYINT NOT NULL,
  ol_o_id INT NOT NULL,
  ol_number TINYINT NOT NULL,
  ol_i_id INT NOT NULL,
  ol_supply_w_id INT NOT NULL,
  ol_delivery_d DATETIME NULL,
  ol_quantity SMALLINT NOT NULL,
  ol_amount DECIMAL(6,2) NOT NULL,
  ol_dist_info CHAR(24) NOT NULL,
  PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
) ENGINE = {{storage_engine}} DEFAULT CHARSET = latin1 COLLATE = latin1_bin
{{order_line_partition}};
