-- Template of the SQL*Loader control files oracle_<table>.ctl that `sledge
-- datagen` writes beside load_oracle.sh; the data file is named on the
-- sqlldr command line (data=). Empty fields load as NULL.
-- Parts: control ({{table}}, {{fields}}), and one of field / field_date
-- (columns whose type in packages/sql/oracle/tprocc/tables.sql is DATE or TIMESTAMP)
-- / field_long (character columns longer than SQL*Loader's 255-byte
-- default: {{length}}) per column, in the files' column order.

-- name: control
-- Sledge datagen: SQL*Loader control file for {{table}}
LOAD DATA
APPEND
INTO TABLE {{table}}
FIELDS TERMINATED BY ','
TRAILING NULLCOLS
(
{{fields}}
)

-- name: field
  {{column}}

-- name: field_date
  {{column}} DATE "YYYY-MM-DD HH24:MI:SS"

-- name: field_long
  {{column}} CHAR({{length}})
