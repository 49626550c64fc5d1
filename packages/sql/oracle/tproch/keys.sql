-- Keys for the TPROC-H tables on Oracle, added after the load: primary
-- keys, the foreign keys of hammerdb.md §10.1 and one index per foreign key
-- (*_fkidx). LINEITEM -> ORDERS is DEFERRABLE: RF1 defers it in each of
-- its transactions (refresh.sql defer_lineitem_order_fk).
--   sqlplus tpch/tpch@//host:1521/FREEPDB1 @keys.sql

-- name: region_pk
ALTER TABLE region ADD CONSTRAINT region_pk PRIMARY KEY (r_regionkey);

-- name: nation_pk
ALTER TABLE nation ADD CONSTRAINT nation_pk PRIMARY KEY (n_nationkey);

-- name: supplier_pk
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY (s_suppkey);

-- name: customer_pk
ALTER TABLE customer ADD CONSTRAINT customer_pk PRIMARY KEY (c_custkey);

-- name: part_pk
ALTER TABLE part ADD CONSTRAINT part_pk PRIMARY KEY (p_partkey);

-- name: partsupp_pk
ALTER TABLE partsupp ADD CONSTRAINT partsupp_pk PRIMARY KEY (ps_partkey, ps_suppkey);

-- name: orders_pk
ALTER TABLE orders ADD CONSTRAINT orders_pk PRIMARY KEY (o_orderkey);

-- name: lineitem_pk
ALTER TABLE lineitem ADD CONSTRAINT lineitem_pk PRIMARY KEY (l_linenumber, l_orderkey);

-- name: nation_region_fk
ALTER TABLE nation ADD CONSTRAINT nation_region_fk FOREIGN KEY (n_regionkey) REFERENCES region (r_regionkey);

-- name: nation_region_fkidx
CREATE INDEX nation_region_fkidx ON nation (n_regionkey);

-- name: supplier_nation_fk
ALTER TABLE supplier ADD CONSTRAINT supplier_nation_fk FOREIGN KEY (s_nationkey) REFERENCES nation (n_nationkey);

-- name: supplier_nation_fkidx
CREATE INDEX supplier_nation_fkidx ON supplier (s_nationkey);

-- name: customer_nation_fk
ALTER TABLE customer ADD CONSTRAINT customer_nation_fk FOREIGN KEY (c_nationkey) REFERENCES nation (n_nationkey);

-- name: customer_nation_fkidx
CREATE INDEX customer_nation_fkidx ON customer (c_nationkey);

-- name: partsupp_part_fk
ALTER TABLE partsupp ADD CONSTRAINT partsupp_part_fk FOREIGN KEY (ps_partkey) REFERENCES part (p_partkey);

-- name: partsupp_part_fkidx
CREATE INDEX partsupp_part_fkidx ON partsupp (ps_partkey);

-- name: partsupp_supplier_fk
ALTER TABLE partsupp ADD CONSTRAINT partsupp_supplier_fk FOREIGN KEY (ps_suppkey) REFERENCES supplier (s_suppkey);

-- name: partsupp_supplier_fkidx
CREATE INDEX partsupp_supplier_fkidx ON partsupp (ps_suppkey);

-- name: orders_customer_fk
ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (o_custkey) REFERENCES customer (c_custkey);

-- name: orders_customer_fkidx
CREATE INDEX orders_customer_fkidx ON orders (o_custkey);

-- name: lineitem_order_fk
ALTER TABLE lineitem ADD CONSTRAINT lineitem_order_fk FOREIGN KEY (l_orderkey) REFERENCES orders (o_orderkey) DEFERRABLE INITIALLY IMMEDIATE;

-- name: lineitem_order_fkidx
CREATE INDEX lineitem_order_fkidx ON lineitem (l_orderkey);

-- name: lineitem_partsupp_fk
ALTER TABLE lineitem ADD CONSTRAINT lineitem_partsupp_fk FOREIGN KEY (l_partkey, l_suppkey) REFERENCES partsupp (ps_partkey, ps_suppkey);

-- name: lineitem_partsupp_fkidx
CREATE INDEX lineitem_partsupp_fkidx ON lineitem (l_partkey, l_suppkey);
