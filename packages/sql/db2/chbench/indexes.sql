-- Keys of CH-benCHmark's three extra tables for Db2, added after the load:
-- primary keys, NATION -> REGION and SUPPLIER -> NATION, and an index per
-- foreign key (*_fkidx). Stock and customers reach SUPPLIER and NATION
-- through expressions, which no foreign key can state.
--   db2 connect to tpcc user db2inst1 && db2 -tvf indexes.sql

-- name: region_pk
ALTER TABLE region ADD CONSTRAINT region_pk PRIMARY KEY (r_regionkey);

-- name: nation_pk
ALTER TABLE nation ADD CONSTRAINT nation_pk PRIMARY KEY (n_nationkey);

-- name: supplier_pk
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY (su_suppkey);

-- name: nation_region_fk
ALTER TABLE nation ADD CONSTRAINT nation_region_fk FOREIGN KEY (n_regionkey) REFERENCES region (r_regionkey);

-- name: supplier_nation_fk
ALTER TABLE supplier ADD CONSTRAINT supplier_nation_fk FOREIGN KEY (su_nationkey) REFERENCES nation (n_nationkey);

-- name: nation_region_fkidx
CREATE INDEX nation_region_fkidx ON nation (n_regionkey);

-- name: supplier_nation_fkidx
CREATE INDEX supplier_nation_fkidx ON supplier (su_nationkey);
