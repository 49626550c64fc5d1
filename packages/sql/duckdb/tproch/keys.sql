-- TPROC-H keys for DuckDB, added after the load, as far as DuckDB allows:
-- primary keys (ALTER TABLE ... ADD PRIMARY KEY, DuckDB 1.2+; DuckDB keeps
-- its own name for the constraint, <table>_<columns>_pkey) and an ART index
-- per single-column foreign key (*_fkidx). DuckDB reads an ART index only for
-- a scan filter on its column (a point filter, or the IN / range filter a
-- hash join pushes into the probe side at run time), never for the join
-- itself: RF2's deletes by orderkey use orders' key and lineitem_order_fkidx,
-- and the nationkey and regionkey indexes serve join filters of Q2, Q5, Q8, Q11,
-- Q20 and Q21. LINEITEM (l_partkey, l_suppkey) has no index: no query or
-- refresh function filters on that pair, and building it was half of the
-- keys' time (SF 0.1: 7.0 s of 13.7 s). No FOREIGN KEY constraints: DuckDB
-- declares them only in CREATE TABLE, never with ALTER TABLE, and checking
-- them would slow the load. Runnable with: duckdb tpch.duckdb < keys.sql

ALTER TABLE region   ADD CONSTRAINT region_pk   PRIMARY KEY (r_regionkey);
ALTER TABLE nation   ADD CONSTRAINT nation_pk   PRIMARY KEY (n_nationkey);
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY (s_suppkey);
ALTER TABLE customer ADD CONSTRAINT customer_pk PRIMARY KEY (c_custkey);
ALTER TABLE part     ADD CONSTRAINT part_pk     PRIMARY KEY (p_partkey);
ALTER TABLE partsupp ADD CONSTRAINT partsupp_pk PRIMARY KEY (ps_partkey, ps_suppkey);
ALTER TABLE orders   ADD CONSTRAINT orders_pk   PRIMARY KEY (o_orderkey);
ALTER TABLE lineitem ADD CONSTRAINT lineitem_pk PRIMARY KEY (l_linenumber, l_orderkey);

CREATE INDEX nation_region_fkidx     ON nation (n_regionkey);
CREATE INDEX supplier_nation_fkidx   ON supplier (s_nationkey);
CREATE INDEX customer_nation_fkidx   ON customer (c_nationkey);
CREATE INDEX partsupp_part_fkidx     ON partsupp (ps_partkey);
CREATE INDEX partsupp_supplier_fkidx ON partsupp (ps_suppkey);
CREATE INDEX orders_customer_fkidx   ON orders (o_custkey);
CREATE INDEX lineitem_order_fkidx    ON lineitem (l_orderkey);
