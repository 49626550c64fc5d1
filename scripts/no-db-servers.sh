#!/usr/bin/env bash
# Run a command where the local PostgreSQL and MariaDB cannot be reached: its
# own network namespace (loopback only, so tests can still listen on
# 127.0.0.1) and empty socket directories over /run/postgresql and
# /run/mysqld. Proves a test tier needs no database server:
#   scripts/no-db-servers.sh pnpm test:unit
# Needs unprivileged user namespaces (unshare -r); Linux only.
set -euo pipefail
exec unshare -rnm bash -c '
  ip link set lo up
  for d in /run/postgresql /run/mysqld; do [ -d "$d" ] && mount -t tmpfs none "$d"; done
  cd "$0" && exec "$@"' "$PWD" "$@"
