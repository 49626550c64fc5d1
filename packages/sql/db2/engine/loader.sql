-- Db2's engine-level loader (driver engine/loader.ts): what a build
-- worker's session reads before it inserts a workload's generated rows.
-- ? are parameter markers.

-- name: column_types
-- Column types of one table of the connection's current schema, for the
-- loader's literals.
SELECT LOWER(colname) AS name, typename AS type_name, length AS max_length, scale AS scale, nulls AS nullable
  FROM syscat.columns
 WHERE tabschema = CURRENT SCHEMA AND tabname = UPPER(?)
 ORDER BY colno;
