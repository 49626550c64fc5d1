-- ORDER_LINE hash-partitioned by warehouse (hammerdb.md §5.1). Used instead
-- of the order_line statement of tables.sql only when target.partition is on
-- and W >= 200. The partitions come from order_line_partition.sql, once per
-- remainder 0..n-1 with n = floor(W/100).

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
) PARTITION BY HASH (ol_w_id);
