-- TPROC-H keys for MySQL and MariaDB, added after the load (hammerdb.md
-- §10.1): primary keys, an index per foreign key (*_fkidx), then the InnoDB
-- foreign keys, which use those indexes. The LINEITEM key is
-- (l_linenumber, l_orderkey), HammerDB's order. InnoDB checks foreign keys
-- row by row (it has no deferred constraints), so the new-sales refresh
-- inserts each order before its lineitems.
-- The foreign keys are added with foreign_key_checks off in this session, and
-- ALGORITHM=INPLACE: with checks on, InnoDB copies the whole child table for
-- each foreign key to check its rows (at SF 1, 1,910 s of a 2,033 s MariaDB
-- build); with checks off it only records the constraint (metadata, well
-- under a second). The rows are dbgen's, consistent by construction (every
-- foreign key value is drawn from the referenced key range; the generator's
-- parity tests hold it to dbgen's rows); checks are back on for the session
-- at the end, and the refresh functions' inserts and deletes are checked.
-- INPLACE makes a server that would still copy fail instead of being slow.
-- Runnable with: mysql tpch < keys.sql

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
CREATE INDEX lineitem_partsupp_fkidx ON lineitem (l_partkey, l_suppkey);
CREATE INDEX lineitem_order_fkidx    ON lineitem (l_orderkey);

SET SESSION foreign_key_checks = 0;
ALTER TABLE nation   ADD CONSTRAINT nation_region_fk     FOREIGN KEY (n_regionkey) REFERENCES region (r_regionkey), ALGORITHM=INPLACE;
ALTER TABLE supplier ADD CONSTRAINT supplier_nation_fk   FOREIGN KEY (s_nationkey) REFERENCES nation (n_nationkey), ALGORITHM=INPLACE;
ALTER TABLE customer ADD CONSTRAINT customer_nation_fk   FOREIGN KEY (c_nationkey) REFERENCES nation (n_nationkey), ALGORITHM=INPLACE;
ALTER TABLE partsupp ADD CONSTRAINT partsupp_part_fk     FOREIGN KEY (ps_partkey) REFERENCES part (p_partkey), ALGORITHM=INPLACE;
ALTER TABLE partsupp ADD CONSTRAINT partsupp_supplier_fk FOREIGN KEY (ps_suppkey) REFERENCES supplier (s_suppkey), ALGORITHM=INPLACE;
ALTER TABLE orders   ADD CONSTRAINT orders_customer_fk   FOREIGN KEY (o_custkey) REFERENCES customer (c_custkey), ALGORITHM=INPLACE;
ALTER TABLE lineitem ADD CONSTRAINT lineitem_partsupp_fk FOREIGN KEY (l_partkey, l_suppkey) REFERENCES partsupp (ps_partkey, ps_suppkey), ALGORITHM=INPLACE;
ALTER TABLE lineitem ADD CONSTRAINT lineitem_order_fk    FOREIGN KEY (l_orderkey) REFERENCES orders (o_orderkey), ALGORITHM=INPLACE;
SET SESSION foreign_key_checks = 1;
