-- The TPROC-H refresh functions on Oracle (hammerdb.md §10.5), as the
-- TPROC-H user. :1.. are positional binds in core TPROCH_COLUMNS order; the
-- driver inserts an order's lineitems with one array DML call
-- (executeMany). Each RF1 transaction first defers LINEITEM -> ORDERS.
-- RF2 deletes an order's lineitems, then the order.

-- name: defer_lineitem_order_fk
SET CONSTRAINT lineitem_order_fk DEFERRED;

-- name: insert_order
INSERT INTO orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
VALUES (:1, :2, :3, :4, TO_DATE(:5, 'YYYY-MM-DD'), :6, :7, :8, :9);

-- name: insert_lineitem
INSERT INTO lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
                      l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
VALUES (:1, :2, :3, :4, :5, :6, :7, :8, :9, :10,
        TO_DATE(:11, 'YYYY-MM-DD'), TO_DATE(:12, 'YYYY-MM-DD'), TO_DATE(:13, 'YYYY-MM-DD'), :14, :15, :16);

-- name: delete_lineitem
DELETE FROM lineitem WHERE l_orderkey = :orderkey;

-- name: delete_order
DELETE FROM orders WHERE o_orderkey = :orderkey;
