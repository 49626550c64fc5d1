-- TPROC-H server version, database lifecycle, schema state and loader
-- statements for MySQL and MariaDB (MariaDB reads this file through the
-- resolver's fallback; a stream's session statements are the engine's,
-- ../engine/session.sql). {{database}} is the backquoted target.database;
-- `?` values are bound by the client.

-- name: version
SELECT VERSION() AS version;

-- name: database_exists
SELECT COUNT(*) AS n FROM information_schema.schemata WHERE schema_name = ?;

-- name: create_database
CREATE DATABASE {{database}} CHARACTER SET latin1 COLLATE latin1_bin;

-- name: drop_database
DROP DATABASE IF EXISTS {{database}};

-- name: tables
-- The TPROC-H tables present in the database.
SELECT LOWER(table_name) AS name FROM information_schema.tables
 WHERE table_schema = ?
   AND LOWER(table_name) IN ('region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem');

-- name: suppliers
-- HammerDB's scale factor check: SF = count(supplier) / 10000.
SELECT COUNT(*) AS n FROM supplier;

-- name: row_counts
SELECT 'region' AS t, COUNT(*) AS n FROM region
UNION ALL SELECT 'nation', COUNT(*) FROM nation
UNION ALL SELECT 'supplier', COUNT(*) FROM supplier
UNION ALL SELECT 'customer', COUNT(*) FROM customer
UNION ALL SELECT 'part', COUNT(*) FROM part
UNION ALL SELECT 'partsupp', COUNT(*) FROM partsupp
UNION ALL SELECT 'orders', COUNT(*) FROM orders
UNION ALL SELECT 'lineitem', COUNT(*) FROM lineitem;

-- name: local_infile
-- Does the server accept LOAD DATA LOCAL? (OFF by default on MySQL 8.)
SELECT @@GLOBAL.local_infile AS enabled;

-- name: load_data
-- TPROC-H rows as generated: '|' separated, no quoting, \N for NULL, one
-- per line. The file name is a token the client's stream factory answers
-- from memory.
LOAD DATA LOCAL INFILE ? INTO TABLE {{table}} CHARACTER SET latin1
  FIELDS TERMINATED BY '|' ({{columns}});

-- name: insert_rows
-- Fallback when the server refuses LOCAL INFILE: multi-row INSERT batches.
INSERT INTO {{table}} ({{columns}}) VALUES ?;

-- name: warnings
SHOW WARNINGS LIMIT 3;
