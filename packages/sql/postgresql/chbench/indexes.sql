-- Keys of CH-benCHmark's three extra tables for PostgreSQL, added after the
-- load: primary keys, NATION -> REGION and SUPPLIER -> NATION, and an index
-- per foreign key (*_fkidx). Stock and customers reach SUPPLIER and NATION
-- through expressions ((s_w_id * s_i_id) mod 10000, the ASCII code of
-- c_state's first character), which no foreign key can state.
-- Runnable with: psql -d tpcc -f indexes.sql

ALTER TABLE region   ADD CONSTRAINT region_pk   PRIMARY KEY (r_regionkey);
ALTER TABLE nation   ADD CONSTRAINT nation_pk   PRIMARY KEY (n_nationkey);
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY (su_suppkey);

ALTER TABLE nation   ADD CONSTRAINT nation_region_fk   FOREIGN KEY (n_regionkey) REFERENCES region (r_regionkey);
ALTER TABLE supplier ADD CONSTRAINT supplier_nation_fk FOREIGN KEY (su_nationkey) REFERENCES nation (n_nationkey);

CREATE INDEX nation_region_fkidx   ON nation (n_regionkey);
CREATE INDEX supplier_nation_fkidx ON supplier (su_nationkey);
