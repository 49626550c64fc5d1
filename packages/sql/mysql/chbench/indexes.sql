-- Keys of CH-benCHmark's three extra tables for MySQL and MariaDB, added
-- after the load: primary keys, NATION -> REGION and SUPPLIER -> NATION
-- (InnoDB indexes each foreign key itself; the named *_fkidx indexes make
-- that explicit and keep the names the other engines use). Stock and
-- customers reach SUPPLIER and NATION through expressions, which no foreign
-- key can state. Runnable with: mysql tpcc < indexes.sql

ALTER TABLE region   ADD CONSTRAINT region_pk   PRIMARY KEY (r_regionkey);
ALTER TABLE nation   ADD CONSTRAINT nation_pk   PRIMARY KEY (n_nationkey);
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY (su_suppkey);

CREATE INDEX nation_region_fkidx   ON nation (n_regionkey);
CREATE INDEX supplier_nation_fkidx ON supplier (su_nationkey);

ALTER TABLE nation   ADD CONSTRAINT nation_region_fk   FOREIGN KEY (n_regionkey) REFERENCES region (r_regionkey);
ALTER TABLE supplier ADD CONSTRAINT supplier_nation_fk FOREIGN KEY (su_nationkey) REFERENCES nation (n_nationkey);
