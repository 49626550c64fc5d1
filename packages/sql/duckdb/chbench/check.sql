-- Rows of CH-benCHmark's three extra tables, for checkschema and the checks
-- before a run (a missing table fails its statement). Standard SQL, the same
-- on every engine.

-- name: rows_region
SELECT count(*) FROM region

-- name: rows_nation
SELECT count(*) FROM nation

-- name: rows_supplier
SELECT count(*) FROM supplier
