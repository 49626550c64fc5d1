-- Keys of CH-benCHmark's three extra tables for SQL Server, added after the
-- load: clustered primary keys, NATION -> REGION and SUPPLIER -> NATION, and
-- an index per foreign key (*_fkidx). Stock and customers reach SUPPLIER and
-- NATION through expressions, which no foreign key can state.
--   sqlcmd -S host -U sa -d tpcc -i indexes.sql

-- name: region_pk
ALTER TABLE dbo.region ADD CONSTRAINT region_pk PRIMARY KEY CLUSTERED (r_regionkey);

-- name: nation_pk
ALTER TABLE dbo.nation ADD CONSTRAINT nation_pk PRIMARY KEY CLUSTERED (n_nationkey);

-- name: supplier_pk
ALTER TABLE dbo.supplier ADD CONSTRAINT supplier_pk PRIMARY KEY CLUSTERED (su_suppkey);

-- name: nation_region_fk
ALTER TABLE dbo.nation ADD CONSTRAINT nation_region_fk FOREIGN KEY (n_regionkey) REFERENCES dbo.region (r_regionkey);

-- name: supplier_nation_fk
ALTER TABLE dbo.supplier ADD CONSTRAINT supplier_nation_fk FOREIGN KEY (su_nationkey) REFERENCES dbo.nation (n_nationkey);

-- name: nation_region_fkidx
CREATE INDEX nation_region_fkidx ON dbo.nation (n_regionkey);

-- name: supplier_nation_fkidx
CREATE INDEX supplier_nation_fkidx ON dbo.supplier (su_nationkey);
