-- SQL Server's settings as a run job records them (server
-- runner/samplers/engine-settings.ts, docs/compare.md): the server
-- configuration options (sp_configure) with the value in use, and the
-- database's own options that change what a run measures.

-- name: settings
-- name, value, unit, source.
SELECT c.name, CAST(c.value_in_use AS nvarchar(64)), NULL,
       CASE WHEN CAST(c.value AS nvarchar(64)) <> CAST(c.value_in_use AS nvarchar(64)) THEN 'sys.configurations (pending: ' + CAST(c.value AS nvarchar(64)) + ')' ELSE 'sys.configurations' END
FROM sys.configurations c
UNION ALL
SELECT 'database.' + v.name, v.value, NULL, 'sys.databases'
FROM sys.databases d
CROSS APPLY (VALUES
  ('compatibility_level', CAST(d.compatibility_level AS nvarchar(64))),
  ('recovery_model', CAST(d.recovery_model_desc AS nvarchar(64))),
  ('is_read_committed_snapshot_on', CAST(d.is_read_committed_snapshot_on AS nvarchar(64))),
  ('snapshot_isolation_state', CAST(d.snapshot_isolation_state_desc AS nvarchar(64))),
  ('delayed_durability', CAST(d.delayed_durability_desc AS nvarchar(64))),
  ('is_auto_create_stats_on', CAST(d.is_auto_create_stats_on AS nvarchar(64))),
  ('is_auto_update_stats_on', CAST(d.is_auto_update_stats_on AS nvarchar(64)))
) AS v(name, value)
WHERE d.database_id = DB_ID();
