-- Indexes of CH-benCHmark's three extra tables for SQLite, added after the
-- load: one per foreign key (*_fkidx). The primary and foreign keys are
-- declared in tables.sql (SQLite cannot add them to a table). Stock and
-- customers reach SUPPLIER and NATION through expressions, which no foreign
-- key can state. Runnable with: sqlite3 tprocc.sqlite < indexes.sql

CREATE INDEX nation_region_fkidx   ON nation (n_regionkey);
CREATE INDEX supplier_nation_fkidx ON supplier (su_nationkey);
