#!/bin/sh
# Prepare the local PostgreSQL for the driver's wrong-password test.
#
# The CI/dev PostgreSQL trusts 127.0.0.1, so any password is accepted. The
# contract test "refuses wrong credentials" needs one role that must
# authenticate: this script puts a scram-sha-256 rule for role
# sledge_auth_test at the top of pg_hba.conf (first match wins), reloads the
# server and creates the role. Idempotent; run as root (or as a user that can
# write pg_hba.conf) with psql able to log in as postgres.
set -eu

PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGSUPER="${PGSUPER:-postgres}"
export PGHOST PGPORT

psql_su() { psql -X -v ON_ERROR_STOP=1 -U "$PGSUPER" -d postgres -Atc "$1"; }

HBA="$(psql_su 'show hba_file')"
LINE='host all sledge_auth_test 127.0.0.1/32 scram-sha-256'

if [ ! -f "$HBA" ]; then
  echo "pg-auth: $HBA not found (is PostgreSQL on this machine?)" >&2
  exit 1
fi

if grep -Eq '^[[:space:]]*host[[:space:]]+all[[:space:]]+sledge_auth_test[[:space:]]+127\.0\.0\.1/32[[:space:]]+scram-sha-256' "$HBA"; then
  echo "pg-auth: $HBA already has the sledge_auth_test rule"
else
  tmp="$(mktemp)"
  { echo "$LINE"; cat "$HBA"; } > "$tmp"
  # Keep owner and mode of the original file.
  cat "$tmp" > "$HBA"
  rm -f "$tmp"
  echo "pg-auth: added '$LINE' at the top of $HBA"
fi

psql_su 'select pg_reload_conf()' >/dev/null

# Password encryption must be scram for a scram-sha-256 rule to accept the role.
psql_su "do \$\$ begin
  if not exists (select 1 from pg_roles where rolname = 'sledge_auth_test') then
    set local password_encryption = 'scram-sha-256';
    create role sledge_auth_test login password 'right-password';
  end if;
end \$\$" >/dev/null
echo "pg-auth: role sledge_auth_test ready"
