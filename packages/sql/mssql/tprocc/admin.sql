-- Statements of the SQL Server admin (monitor) session. Parameters are
-- tedious named parameters (@name); $(name) is a sqlcmd variable the driver
-- fills with a validated identifier. By hand:
--   sqlcmd -S host -U sa -d master -v database=tpcc -Q "<statement>"

-- name: server_version
SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS version;

-- name: database_exists
-- Run on master: 1 when the TPROC-C database is there.
SELECT CASE WHEN DB_ID(@database) IS NULL THEN 0 ELSE 1 END AS present;

-- name: create_database
CREATE DATABASE [$(database)];

-- name: warehouse_table_exists
-- Run in the TPROC-C database.
SELECT CASE WHEN OBJECT_ID(N'dbo.warehouse', N'U') IS NULL THEN 0 ELSE 1 END AS present;

-- name: max_warehouse
SELECT ISNULL(MAX(w_id), 0) AS w FROM dbo.warehouse;
