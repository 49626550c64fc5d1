-- TPROC-C tables for PostgreSQL (hammerdb.md §5.1). Run as the TPC user in
-- the TPC database:  psql -d tpcc -U tpcc -f tables.sql
-- Every column is NOT NULL except h_c_id, o_carrier_id, ol_delivery_d,
-- ol_amount and ol_dist_info. Keys are added after the load (indexes.sql).
-- Each statement is named so the driver can swap ORDER_LINE for the
-- hash-partitioned variant (partition.sql).

-- name: warehouse
CREATE TABLE warehouse (
  w_id       integer       NOT NULL,
  w_ytd      numeric(16,2) NOT NULL,
  w_tax      numeric(4,4)  NOT NULL,
  w_name     varchar(10)   NOT NULL,
  w_street_1 varchar(20)   NOT NULL,
  w_street_2 varchar(20)   NOT NULL,
  w_city     varchar(20)   NOT NULL,
  w_state    char(2)       NOT NULL,
  w_zip      char(9)       NOT NULL
);

-- name: district
CREATE TABLE district (
  d_w_id      integer       NOT NULL,
  d_next_o_id integer       NOT NULL,
  d_id        smallint      NOT NULL,
  d_ytd       numeric(12,2) NOT NULL,
  d_tax       numeric(4,4)  NOT NULL,
  d_name      varchar(10)   NOT NULL,
  d_street_1  varchar(20)   NOT NULL,
  d_street_2  varchar(20)   NOT NULL,
  d_city      varchar(20)   NOT NULL,
  d_state     char(2)       NOT NULL,
  d_zip       char(9)       NOT NULL
);

-- name: customer
CREATE TABLE customer (
  c_since        timestamptz   NOT NULL,
  c_id           integer       NOT NULL,
  c_w_id         integer       NOT NULL,
  c_d_id         smallint      NOT NULL,
  c_payment_cnt  smallint      NOT NULL,
  c_delivery_cnt smallint      NOT NULL,
  c_first        varchar(16)   NOT NULL,
  c_middle       char(2)       NOT NULL,
  c_last         varchar(16)   NOT NULL,
  c_street_1     varchar(20)   NOT NULL,
  c_street_2     varchar(20)   NOT NULL,
  c_city         varchar(20)   NOT NULL,
  c_state        char(2)       NOT NULL,
  c_zip          char(9)       NOT NULL,
  c_phone        char(16)      NOT NULL,
  c_credit       char(2)       NOT NULL,
  c_credit_lim   numeric(12,2) NOT NULL,
  c_discount     numeric(4,4)  NOT NULL,
  c_balance      numeric(12,2) NOT NULL,
  c_ytd_payment  numeric(12,2) NOT NULL,
  c_data         varchar(500)  NOT NULL
);

-- name: history
CREATE TABLE history (
  h_date   timestamptz  NOT NULL,
  h_c_id   integer,
  h_c_w_id integer      NOT NULL,
  h_w_id   integer      NOT NULL,
  h_c_d_id smallint     NOT NULL,
  h_d_id   smallint     NOT NULL,
  h_amount numeric(6,2) NOT NULL,
  h_data   varchar(24)  NOT NULL
);

-- name: item
CREATE TABLE item (
  i_id    integer      NOT NULL,
  i_im_id integer      NOT NULL,
  i_name  varchar(24)  NOT NULL,
  i_price numeric(5,2) NOT NULL,
  i_data  varchar(50)  NOT NULL
);

-- name: stock
CREATE TABLE stock (
  s_i_id       integer     NOT NULL,
  s_w_id       integer     NOT NULL,
  s_ytd        integer     NOT NULL,
  s_quantity   smallint    NOT NULL,
  s_order_cnt  smallint    NOT NULL,
  s_remote_cnt smallint    NOT NULL,
  s_dist_01    char(24)    NOT NULL,
  s_dist_02    char(24)    NOT NULL,
  s_dist_03    char(24)    NOT NULL,
  s_dist_04    char(24)    NOT NULL,
  s_dist_05    char(24)    NOT NULL,
  s_dist_06    char(24)    NOT NULL,
  s_dist_07    char(24)    NOT NULL,
  s_dist_08    char(24)    NOT NULL,
  s_dist_09    char(24)    NOT NULL,
  s_dist_10    char(24)    NOT NULL,
  s_data       varchar(50) NOT NULL
);

-- name: new_order
CREATE TABLE new_order (
  no_w_id integer  NOT NULL,
  no_o_id integer  NOT NULL,
  no_d_id smallint NOT NULL
);

-- name: orders
CREATE TABLE orders (
  o_entry_d    timestamptz NOT NULL,
  o_id         integer     NOT NULL,
  o_w_id       integer     NOT NULL,
  o_c_id       integer     NOT NULL,
  o_d_id       smallint    NOT NULL,
  o_carrier_id smallint,
  o_ol_cnt     smallint    NOT NULL,
  o_all_local  smallint    NOT NULL
);

-- name: order_line
CREATE TABLE order_line (
  ol_delivery_d  timestamptz,
  ol_o_id        integer     NOT NULL,
  ol_w_id        integer     NOT NULL,
  ol_i_id        integer     NOT NULL,
  ol_supply_w_id integer     NOT NULL,
  ol_d_id        smallint    NOT NULL,
  ol_number      smallint    NOT NULL,
  ol_quantity    smallint    NOT NULL,
  ol_amount      numeric(6,2),
  ol_dist_info   char(24)
);
