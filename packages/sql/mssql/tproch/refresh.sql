-- The TPROC-H refresh functions on SQL Server (hammerdb.md §10.5). @name are
-- tedious parameters, one per column. RF1 inserts each order, then its
-- lineitems (so LINEITEM -> ORDERS holds without deferral); RF2 deletes
-- the lineitems of an order, then the order. The driver commits every
-- commitEvery orders.

-- name: insert_order
INSERT INTO dbo.orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
VALUES (@o_orderkey, @o_custkey, @o_orderstatus, @o_totalprice, @o_orderdate, @o_orderpriority, @o_clerk, @o_shippriority, @o_comment);

-- name: insert_lineitem
INSERT INTO dbo.lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
                          l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
VALUES (@l_orderkey, @l_partkey, @l_suppkey, @l_linenumber, @l_quantity, @l_extendedprice, @l_discount, @l_tax,
        @l_returnflag, @l_linestatus, @l_shipdate, @l_commitdate, @l_receiptdate, @l_shipinstruct, @l_shipmode, @l_comment);

-- name: delete_lineitem
DELETE FROM dbo.lineitem WHERE l_orderkey = @orderkey;

-- name: delete_order
DELETE FROM dbo.orders WHERE o_orderkey = @orderkey;
