-- TPROC-C tables for SQL Server (hammerdb.md §5.1), written for Sledge.
-- Run in the TPROC-C database:  sqlcmd -S host -U sa -d tpcc -i tables.sql
-- Every table but HISTORY has a clustered primary key from the start, so
-- bulk loads write straight into the clustered B-trees; the secondary
-- indexes come after the load (indexes.sql).
-- Columns are NOT NULL except h_c_id, o_carrier_id, ol_delivery_d,
-- ol_amount and ol_dist_info.

-- name: warehouse
CREATE TABLE dbo.warehouse (
  w_id       int           NOT NULL,
  w_ytd      numeric(16,2) NOT NULL,
  w_tax      numeric(4,4)  NOT NULL,
  w_name     varchar(10)   NOT NULL,
  w_street_1 varchar(20)   NOT NULL,
  w_street_2 varchar(20)   NOT NULL,
  w_city     varchar(20)   NOT NULL,
  w_state    char(2)       NOT NULL,
  w_zip      char(9)       NOT NULL,
  CONSTRAINT warehouse_i1 PRIMARY KEY CLUSTERED (w_id)
);

-- name: district
CREATE TABLE dbo.district (
  d_w_id      int           NOT NULL,
  d_id        smallint      NOT NULL,
  d_next_o_id int           NOT NULL,
  d_ytd       numeric(12,2) NOT NULL,
  d_tax       numeric(4,4)  NOT NULL,
  d_name      varchar(10)   NOT NULL,
  d_street_1  varchar(20)   NOT NULL,
  d_street_2  varchar(20)   NOT NULL,
  d_city      varchar(20)   NOT NULL,
  d_state     char(2)       NOT NULL,
  d_zip       char(9)       NOT NULL,
  CONSTRAINT district_i1 PRIMARY KEY CLUSTERED (d_w_id, d_id)
);

-- name: customer
CREATE TABLE dbo.customer (
  c_w_id         int           NOT NULL,
  c_d_id         smallint      NOT NULL,
  c_id           int           NOT NULL,
  c_first        varchar(16)   NOT NULL,
  c_middle       char(2)       NOT NULL,
  c_last         varchar(16)   NOT NULL,
  c_street_1     varchar(20)   NOT NULL,
  c_street_2     varchar(20)   NOT NULL,
  c_city         varchar(20)   NOT NULL,
  c_state        char(2)       NOT NULL,
  c_zip          char(9)       NOT NULL,
  c_phone        char(16)      NOT NULL,
  c_since        datetime      NOT NULL,
  c_credit       char(2)       NOT NULL,
  c_credit_lim   numeric(12,2) NOT NULL,
  c_discount     numeric(4,4)  NOT NULL,
  c_balance      numeric(12,2) NOT NULL,
  c_ytd_payment  numeric(12,2) NOT NULL,
  c_payment_cnt  smallint      NOT NULL,
  c_delivery_cnt smallint      NOT NULL,
  c_data         varchar(500)  NOT NULL,
  CONSTRAINT customer_i1 PRIMARY KEY CLUSTERED (c_w_id, c_d_id, c_id)
);

-- name: history
CREATE TABLE dbo.history (
  h_c_id   int          NULL,
  h_c_d_id smallint     NOT NULL,
  h_c_w_id int          NOT NULL,
  h_d_id   smallint     NOT NULL,
  h_w_id   int          NOT NULL,
  h_date   datetime     NOT NULL,
  h_amount numeric(6,2) NOT NULL,
  h_data   varchar(24)  NOT NULL
);

-- name: item
CREATE TABLE dbo.item (
  i_id    int          NOT NULL,
  i_im_id int          NOT NULL,
  i_name  varchar(24)  NOT NULL,
  i_price numeric(5,2) NOT NULL,
  i_data  varchar(50)  NOT NULL,
  CONSTRAINT item_i1 PRIMARY KEY CLUSTERED (i_id)
);

-- name: stock
CREATE TABLE dbo.stock (
  s_w_id       int         NOT NULL,
  s_i_id       int         NOT NULL,
  s_quantity   smallint    NOT NULL,
  s_ytd        int         NOT NULL,
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
  s_data       varchar(50) NOT NULL,
  CONSTRAINT stock_i1 PRIMARY KEY CLUSTERED (s_w_id, s_i_id)
);

-- name: orders
CREATE TABLE dbo.orders (
  o_w_id       int      NOT NULL,
  o_d_id       smallint NOT NULL,
  o_id         int      NOT NULL,
  o_c_id       int      NOT NULL,
  o_entry_d    datetime NOT NULL,
  o_carrier_id smallint NULL,
  o_ol_cnt     smallint NOT NULL,
  o_all_local  smallint NOT NULL,
  CONSTRAINT orders_i1 PRIMARY KEY CLUSTERED (o_w_id, o_d_id, o_id)
);

-- name: new_order
CREATE TABLE dbo.new_order (
  no_w_id int      NOT NULL,
  no_d_id smallint NOT NULL,
  no_o_id int      NOT NULL,
  CONSTRAINT new_order_i1 PRIMARY KEY CLUSTERED (no_w_id, no_d_id, no_o_id)
);

-- name: order_line
CREATE TABLE dbo.order_line (
  ol_w_id        int          NOT NULL,
  ol_d_id        smallint     NOT NULL,
  ol_o_id        int          NOT NULL,
  ol_number      smallint     NOT NULL,
  ol_i_id        int          NOT NULL,
  ol_supply_w_id int          NOT NULL,
  ol_delivery_d  datetime     NULL,
  ol_quantity    smallint     NOT NULL,
  ol_amount      numeric(6,2) NULL,
  ol_dist_info   char(24)     NULL,
  CONSTRAINT order_line_i1 PRIMARY KEY CLUSTERED (ol_w_id, ol_d_id, ol_o_id, ol_number)
);
