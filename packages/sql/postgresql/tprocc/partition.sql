-- ORDER_LINE hash-partitioned by warehouse (hammerdb.md §5.1). Used only when
-- target.partition is on and W >= 200: order_line_partitioned replaces the
-- order_line statement of tables.sql, then order_line_partition is rendered
-- once per remainder 0..n-1 with n = floor(W/100) (the driver quotes
-- :"partition" as an identifier; partitions are named ol_0 .. ol_{n-1}).
-- By hand, in place of the order_line statement of tables.sql (n = 2):
--   psql -d tpcc -U tpcc -v partition=ol_0 -v modulus=2 -v remainder=0 -f partition.sql
-- creates the table and partition ol_0; repeat the last statement for ol_1.

-- name: order_line_partitioned
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
) PARTITION BY HASH (ol_w_id);

-- name: order_line_partition
CREATE TABLE :"partition" PARTITION OF order_line
  FOR VALUES WITH (MODULUS :modulus, REMAINDER :remainder);
