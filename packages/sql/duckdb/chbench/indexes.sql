-- Keys of CH-benCHmark's three extra tables for DuckDB, added after the
-- load as far as DuckDB allows: primary keys (ALTER TABLE ... ADD PRIMARY
-- KEY) and an ART index per foreign key column (*_fkidx). No FOREIGN KEY
-- constraints: DuckDB declares them only in CREATE TABLE, never with ALTER
-- TABLE (as TPROC-H's keys.sql). Stock and customers reach SUPPLIER and
-- NATION through expressions ((s_w_id * s_i_id) mod 10000, the ASCII code of
-- c_state's first character), which no key can state.
-- Runnable with: duckdb chbench.duckdb < indexes.sql

ALTER TABLE region   ADD CONSTRAINT region_pk   PRIMARY KEY (r_regionkey);
ALTER TABLE nation   ADD CONSTRAINT nation_pk   PRIMARY KEY (n_nationkey);
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY (su_suppkey);

CREATE INDEX nation_region_fkidx   ON nation (n_regionkey);
CREATE INDEX supplier_nation_fkidx ON supplier (su_nationkey);

ANALYZE region;
ANALYZE nation;
ANALYZE supplier;
