# Template of load_oracle.sh, the script `sledge datagen` writes next to its
# CSV files (the driver's tprocc/hooks.ts datagenScripts fills it), together with
# one SQL*Loader control file per table (oracle_<table>.ctl, from
# datagen_load.ctl).
# Parts: header, file (once per generated file), footer.
# Placeholders: {{dir}} {{seed}} {{warehouses}} {{workers}} {{timestamp}}
# {{files}} {{rows}}; per file {{table}} {{file}} {{control_file}} {{rows}} {{worker}}.

# name: header
#!/bin/sh
# Sledge TPROC-C flat files for Oracle: {{warehouses}} warehouse(s),
# seed {{seed}}, {{workers}} worker(s), timestamp {{timestamp}},
# {{files}} files, {{rows}} rows, written to {{dir}}
#
# 1. Create the tables first, as the TPROC-C user:
#      sqlplus tpcc/password@//host:1521/FREEPDB1 @packages/sql/oracle/tprocc/tables.sql
# 2. Run this script with sqlldr on the PATH (direct-path loads):
#      ORACLE_CONNECT=tpcc/password@//host:1521/FREEPDB1 sh load_oracle.sh
#    Files are read from this script's directory (or $SLEDGE_DATAGEN_DIR);
#    each load writes <file>.log and, on rejected rows, <file>.bad there.
# 3. Then packages/sql/oracle/tprocc/indexes.sql and procedures.sql.
set -eu
DIR="${SLEDGE_DATAGEN_DIR:-$(cd "$(dirname "$0")" && pwd)}"
: "${ORACLE_CONNECT:?set ORACLE_CONNECT, e.g. tpcc/password@//host:1521/FREEPDB1}"
load() {
  echo "loading $2 into $1"
  sqlldr userid="$ORACLE_CONNECT" control="$DIR/$3" data="$DIR/$2" \
    log="$DIR/$2.log" bad="$DIR/$2.bad" direct=true errors=0 silent=header,feedback
}

# name: file
load {{table}} {{file}} {{control_file}}

# name: footer
echo "loaded {{files}} files ({{rows}} rows)"
