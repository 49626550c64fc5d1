-- SQL Server's engine-level loader (driver engine/loader.ts): what a build
-- worker's session reads before it bulk-copies a workload's generated rows.
-- @table is bound by the client.

-- name: column_types
-- Column types of one table, for the bulk loader (TDS bulk copy needs them).
SELECT c.name AS name, t.name AS type_name, c.max_length AS max_length,
       c.precision AS precision, c.scale AS scale, c.is_nullable AS is_nullable
  FROM sys.columns c
  JOIN sys.types t ON t.user_type_id = c.user_type_id
 WHERE c.object_id = OBJECT_ID(@table)
 ORDER BY c.column_id;
