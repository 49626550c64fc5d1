-- DuckDB's settings as a run job records them (server
-- runner/samplers/engine-settings.ts, docs/compare.md), read on a query
-- session of the target's file. DuckDB keeps no per-statement counters, so
-- this file has no statement_counters. Settings that hold credentials
-- (s3_secret_access_key, s3_session_token, azure connection strings ...) are
-- withheld by name before anything is stored.

-- name: settings
-- name, value, unit, source (the setting's scope: GLOBAL or LOCAL).
SELECT name, value, NULL, scope FROM duckdb_settings() ORDER BY name;
