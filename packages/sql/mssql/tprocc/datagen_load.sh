# Template of load_mssql.sh, the script `sledge datagen` writes next to its
# CSV files (the driver's tprocc/hooks.ts datagenScripts fills it), together with
# one bcp format file per table (mssql_<table>.fmt, from datagen_load.fmt).
# Parts: header, file (once per generated file), footer.
# Placeholders: {{dir}} {{seed}} {{warehouses}} {{workers}} {{timestamp}}
# {{files}} {{rows}}; per file {{table}} {{file}} {{format_file}} {{rows}} {{worker}}.
# Empty fields load as NULL (bcp -k keeps them NULL instead of defaults).

# name: header
#!/bin/sh
# Sledge TPROC-C flat files for SQL Server: {{warehouses}} warehouse(s),
# seed {{seed}}, {{workers}} worker(s), timestamp {{timestamp}},
# {{files}} files, {{rows}} rows, written to {{dir}}
#
# 1. Create the tables first, in the TPROC-C database:
#      sqlcmd -S host -U sa -d tpcc -i packages/sql/mssql/tprocc/tables.sql
# 2. Run this script with bcp (mssql-tools) on the PATH:
#      MSSQL_SERVER=host MSSQL_USER=sa MSSQL_PASSWORD=... MSSQL_DATABASE=tpcc sh load_mssql.sh
#    Files are read from this script's directory (or $SLEDGE_DATAGEN_DIR).
# 3. Then packages/sql/mssql/tprocc/indexes.sql and procedures.sql.
set -eu
DIR="${SLEDGE_DATAGEN_DIR:-$(cd "$(dirname "$0")" && pwd)}"
: "${MSSQL_SERVER:?set MSSQL_SERVER (host or host,port)}"
: "${MSSQL_USER:?set MSSQL_USER}"
: "${MSSQL_PASSWORD:?set MSSQL_PASSWORD}"
MSSQL_DATABASE="${MSSQL_DATABASE:-tpcc}"
load() {
  echo "loading $2 into $1"
  bcp "$MSSQL_DATABASE.dbo.$1" in "$DIR/$2" -S "$MSSQL_SERVER" -U "$MSSQL_USER" -P "$MSSQL_PASSWORD" \
    -f "$DIR/$3" -k -b 50000 -h "TABLOCK" -m 1 -e "$DIR/$2.errors"
}

# name: file
load {{table}} {{file}} {{format_file}}

# name: footer
echo "loaded {{files}} files ({{rows}} rows)"
