-- TPROC-H keys for SQLite, added after the load. Runnable with: sqlite3 tpch.sqlite < keys.sql
--
-- SQLite cannot add a PRIMARY KEY or FOREIGN KEY constraint to an existing
-- table (ALTER TABLE has no ADD CONSTRAINT). Primary keys become unique
-- indexes named *_pk, which is what the planner uses a key for, and every
-- foreign key of the other engines gets its index (*_fkidx). The foreign keys
-- themselves are not declared: they would need each table rebuilt, and the
-- driver runs with foreign_keys=OFF as in TPROC-C.

CREATE UNIQUE INDEX region_pk ON region (r_regionkey);
CREATE UNIQUE INDEX nation_pk ON nation (n_nationkey);
CREATE UNIQUE INDEX supplier_pk ON supplier (s_suppkey);
CREATE UNIQUE INDEX customer_pk ON customer (c_custkey);
CREATE UNIQUE INDEX part_pk ON part (p_partkey);
CREATE UNIQUE INDEX partsupp_pk ON partsupp (ps_partkey, ps_suppkey);
CREATE UNIQUE INDEX orders_pk ON orders (o_orderkey);
CREATE UNIQUE INDEX lineitem_pk ON lineitem (l_linenumber, l_orderkey);

-- One index per foreign key of the other engines' schema.
CREATE INDEX nation_region_fkidx ON nation (n_regionkey);
CREATE INDEX supplier_nation_fkidx ON supplier (s_nationkey);
CREATE INDEX customer_nation_fkidx ON customer (c_nationkey);
CREATE INDEX partsupp_part_fkidx ON partsupp (ps_partkey);
CREATE INDEX partsupp_supplier_fkidx ON partsupp (ps_suppkey);
CREATE INDEX orders_customer_fkidx ON orders (o_custkey);
CREATE INDEX lineitem_partsupp_fkidx ON lineitem (l_partkey, l_suppkey);
CREATE INDEX lineitem_order_fkidx ON lineitem (l_orderkey);
