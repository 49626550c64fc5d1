-- Keys for the TPROC-H tables on SQL Server, added after the load: the
-- primary keys (clustered), the foreign keys of hammerdb.md §10.1 and one
-- index per foreign key (*_fkidx). SQL Server has no deferrable
-- constraints: RF1 inserts an order before its lineitems, so the
-- LINEITEM -> ORDERS key holds at every statement.
--   sqlcmd -S host -U sa -d tpch -i keys.sql

-- name: region_pk
ALTER TABLE dbo.region ADD CONSTRAINT region_pk PRIMARY KEY CLUSTERED (r_regionkey);

-- name: nation_pk
ALTER TABLE dbo.nation ADD CONSTRAINT nation_pk PRIMARY KEY CLUSTERED (n_nationkey);

-- name: supplier_pk
ALTER TABLE dbo.supplier ADD CONSTRAINT supplier_pk PRIMARY KEY CLUSTERED (s_suppkey);

-- name: customer_pk
ALTER TABLE dbo.customer ADD CONSTRAINT customer_pk PRIMARY KEY CLUSTERED (c_custkey);

-- name: part_pk
ALTER TABLE dbo.part ADD CONSTRAINT part_pk PRIMARY KEY CLUSTERED (p_partkey);

-- name: partsupp_pk
ALTER TABLE dbo.partsupp ADD CONSTRAINT partsupp_pk PRIMARY KEY CLUSTERED (ps_partkey, ps_suppkey);

-- name: orders_pk
ALTER TABLE dbo.orders ADD CONSTRAINT orders_pk PRIMARY KEY CLUSTERED (o_orderkey);

-- name: lineitem_pk
ALTER TABLE dbo.lineitem ADD CONSTRAINT lineitem_pk PRIMARY KEY CLUSTERED (l_linenumber, l_orderkey);

-- name: nation_region_fk
ALTER TABLE dbo.nation ADD CONSTRAINT nation_region_fk FOREIGN KEY (n_regionkey) REFERENCES dbo.region (r_regionkey);

-- name: nation_region_fkidx
CREATE INDEX nation_region_fkidx ON dbo.nation (n_regionkey);

-- name: supplier_nation_fk
ALTER TABLE dbo.supplier ADD CONSTRAINT supplier_nation_fk FOREIGN KEY (s_nationkey) REFERENCES dbo.nation (n_nationkey);

-- name: supplier_nation_fkidx
CREATE INDEX supplier_nation_fkidx ON dbo.supplier (s_nationkey);

-- name: customer_nation_fk
ALTER TABLE dbo.customer ADD CONSTRAINT customer_nation_fk FOREIGN KEY (c_nationkey) REFERENCES dbo.nation (n_nationkey);

-- name: customer_nation_fkidx
CREATE INDEX customer_nation_fkidx ON dbo.customer (c_nationkey);

-- name: partsupp_part_fk
ALTER TABLE dbo.partsupp ADD CONSTRAINT partsupp_part_fk FOREIGN KEY (ps_partkey) REFERENCES dbo.part (p_partkey);

-- name: partsupp_part_fkidx
CREATE INDEX partsupp_part_fkidx ON dbo.partsupp (ps_partkey);

-- name: partsupp_supplier_fk
ALTER TABLE dbo.partsupp ADD CONSTRAINT partsupp_supplier_fk FOREIGN KEY (ps_suppkey) REFERENCES dbo.supplier (s_suppkey);

-- name: partsupp_supplier_fkidx
CREATE INDEX partsupp_supplier_fkidx ON dbo.partsupp (ps_suppkey);

-- name: orders_customer_fk
ALTER TABLE dbo.orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (o_custkey) REFERENCES dbo.customer (c_custkey);

-- name: orders_customer_fkidx
CREATE INDEX orders_customer_fkidx ON dbo.orders (o_custkey);

-- name: lineitem_order_fk
ALTER TABLE dbo.lineitem ADD CONSTRAINT lineitem_order_fk FOREIGN KEY (l_orderkey) REFERENCES dbo.orders (o_orderkey);

-- name: lineitem_order_fkidx
CREATE INDEX lineitem_order_fkidx ON dbo.lineitem (l_orderkey);

-- name: lineitem_partsupp_fk
ALTER TABLE dbo.lineitem ADD CONSTRAINT lineitem_partsupp_fk FOREIGN KEY (l_partkey, l_suppkey) REFERENCES dbo.partsupp (ps_partkey, ps_suppkey);

-- name: lineitem_partsupp_fkidx
CREATE INDEX lineitem_partsupp_fkidx ON dbo.lineitem (l_partkey, l_suppkey);
