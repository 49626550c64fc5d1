-- Template of load_postgresql.sql, the script `sledge datagen` writes next
-- to its CSV files (the driver's tprocc/hooks.ts datagenScripts fills it).
-- Parts: header, file (once per generated file), footer.
-- Placeholders: {{dir}} {{seed}} {{warehouses}} {{workers}} {{timestamp}}
-- {{files}} {{rows}} (whole directory); {{table}} {{file}} {{path}}
-- (quoted absolute path) {{columns}} {{rows}} {{worker}} (per file).
-- Files are CSV: comma separated, NULL as an unquoted empty field, which
-- is exactly what COPY ... (FORMAT csv) reads as NULL.

-- name: header
-- Sledge TPROC-C flat files for PostgreSQL: {{warehouses}} warehouse(s),
-- seed {{seed}}, {{workers}} worker(s), timestamp {{timestamp}},
-- {{files}} files, {{rows}} rows, in {{dir}}
--
-- 1. Create the tables first, in the TPROC-C database as its owner:
--      psql -d tpcc -U tpcc -f packages/sql/postgresql/tprocc/tables.sql
-- 2. Run this script (\copy reads the files on the client side):
--      psql -d tpcc -U tpcc -f load_postgresql.sql
-- 3. Then add the keys and routines: packages/sql/postgresql/tprocc/indexes.sql and
--    functions.sql (or procedures.sql), and ANALYZE.
\set ON_ERROR_STOP on

-- name: file
\copy {{table}} ({{columns}}) from {{path}} with (format csv)

-- name: footer
\echo 'loaded {{files}} files ({{rows}} rows)'
