-- Template of load_db2.sql, the script `sledge datagen` writes next to its
-- CSV files (the driver's tprocc/hooks.ts datagenScripts fills it).
-- Parts: header, file (once per generated file), footer.
-- Placeholders: {{dir}} {{seed}} {{warehouses}} {{workers}} {{timestamp}}
-- {{files}} {{rows}}; per file {{table}} {{file}} {{path}} {{columns}} {{rows}} {{worker}}.
-- The files are DEL (comma separated); empty fields load as NULL.

-- name: header
-- Sledge TPROC-C flat files for Db2: {{warehouses}} warehouse(s),
-- seed {{seed}}, {{workers}} worker(s), timestamp {{timestamp}},
-- {{files}} files, {{rows}} rows, in {{dir}}
--
-- 1. Create the tables first, as the TPROC-C user:
--      tablespace=USERSPACE1 envsubst < packages/sql/db2/tprocc/tables.sql | db2 -td@ -v
-- 2. Connect and run this script with the CLP (';' terminated):
--      db2 connect to TPCC user tpcc && db2 -tvf load_db2.sql
--    LOAD CLIENT reads the files where the CLP runs (local or remote).
--    Without LOAD authority, use IMPORT FROM <file> OF DEL MODIFIED BY
--    TIMESTAMPFORMAT="YYYY-MM-DD HH:MM:SS" COMMITCOUNT 10000 INSERT INTO ...
--    instead of each LOAD (and drop NONRECOVERABLE).
-- 3. Then packages/sql/db2/tprocc/indexes.sql and procedures.sql.

-- name: file
LOAD CLIENT FROM {{path}} OF DEL MODIFIED BY TIMESTAMPFORMAT="YYYY-MM-DD HH:MM:SS" INSERT INTO {{table}} ({{columns}}) NONRECOVERABLE;

-- name: footer
-- loaded {{files}} files ({{rows}} rows)
