-- Statements of the SQL Server TPROC-H admin (monitor) session. @name are
-- tedious parameters; $(name) is a sqlcmd variable the driver fills with a
-- validated identifier. Server-level statements run on master, the others
-- in the TPROC-H database (default tpch).
--   sqlcmd -S host -U sa -d master -v database=tpch -Q "<statement>"

-- name: server_version
SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS version;

-- name: database_exists
-- master: 1 when the TPROC-H database is there.
SELECT CASE WHEN DB_ID(@database) IS NULL THEN 0 ELSE 1 END AS present;

-- name: create_database
CREATE DATABASE [$(database)];

-- name: supplier_exists
SELECT CASE WHEN OBJECT_ID(N'dbo.supplier', N'U') IS NULL THEN 0 ELSE 1 END AS present;

-- name: supplier_count
-- HammerDB's scale factor check: count(supplier) / 10000.
SELECT COUNT_BIG(*) AS n FROM dbo.supplier;

-- name: row_count
SELECT COUNT_BIG(*) AS n FROM dbo.$(table);

-- name: column_types
-- Column types of one table, for the bulk loader (TDS bulk copy needs them).
SELECT c.name AS name, t.name AS type_name, c.max_length AS max_length,
       c.precision AS precision, c.scale AS scale, c.is_nullable AS is_nullable
  FROM sys.columns c
  JOIN sys.types t ON t.user_type_id = c.user_type_id
 WHERE c.object_id = OBJECT_ID(@table)
 ORDER BY c.column_id;
