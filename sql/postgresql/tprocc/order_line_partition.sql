-- One ORDER_LINE partition. A template in psql variable syntax: the driver
-- renders it once per remainder 0..modulus-1 (quoting :"partition" as an
-- identifier); by hand:
--   psql -v partition=ol_0 -v modulus=2 -v remainder=0 -f order_line_partition.sql

-- name: order_line_partition
CREATE TABLE :"partition" PARTITION OF order_line
  FOR VALUES WITH (MODULUS :modulus, REMAINDER :remainder);
