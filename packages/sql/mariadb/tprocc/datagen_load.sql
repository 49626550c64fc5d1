-- Template of load_mariadb.sql, the script `sledge datagen` writes next to its
-- CSV files (the driver's tprocc/hooks.ts datagenScripts fills it).
-- Parts: header, file (once per generated file), footer; column_nullable,
-- set_clause (its leading empty line is kept: a line break) and assignment
-- build {{column_list}} and {{set_clause}}:
-- nullable columns (per tables.sql) are read into @variables and set with
-- NULLIF, because the files write NULL as an empty field and LOAD DATA
-- would otherwise store '' / 0 there.
-- Placeholders: {{dir}} {{seed}} {{warehouses}} {{workers}} {{timestamp}}
-- {{files}} {{rows}}; per file {{table}} {{file}} {{path}} {{columns}}
-- {{column_list}} {{set_clause}} {{rows}} {{worker}}.

-- name: header
-- Sledge TPROC-C flat files for MariaDB: {{warehouses}} warehouse(s),
-- seed {{seed}}, {{workers}} worker(s), timestamp {{timestamp}},
-- {{files}} files, {{rows}} rows, in {{dir}}
--
-- 1. Create the tables first with packages/sql/mysql/tprocc/tables.sql, a template:
--    fill its placeholders as its header shows (storage engine InnoDB, the
--    others empty) and pipe it to `mariadb tpcc`.
-- 2. Run this script; LOAD DATA LOCAL must be allowed on both sides
--    (server: SET GLOBAL local_infile = ON; client: --local-infile=1):
--      mariadb --local-infile=1 tpcc < load_mariadb.sql
-- 3. Then packages/sql/mysql/tprocc/indexes.sql and procedures.sql.

-- name: file
LOAD DATA LOCAL INFILE {{path}} INTO TABLE {{table}} CHARACTER SET latin1
  FIELDS TERMINATED BY ',' LINES TERMINATED BY '\n'
  ({{column_list}}){{set_clause}};

-- name: footer
SELECT 'loaded {{files}} files ({{rows}} rows)' AS sledge_datagen;

-- name: column_nullable
@{{column}}

-- name: set_clause

  SET {{assignments}}

-- name: assignment
{{column}} = NULLIF(@{{column}}, '')
