-- Db2's settings as a run job records them (server
-- runner/samplers/engine-settings.ts, docs/compare.md): the database
-- configuration of the connected database (SYSIBMADM.DBCFG) and the database
-- manager's (SYSIBMADM.DBMCFG), each name prefixed by where it lives. On a
-- multi-member system the first member's value is kept.

-- name: settings
-- name, value, unit, source.
SELECT 'db.' || name, value, NULL, 'db cfg' || CASE WHEN value_flags = 'AUTOMATIC' THEN ' (AUTOMATIC)' ELSE '' END
FROM sysibmadm.dbcfg
UNION ALL
SELECT 'dbm.' || name, value, NULL, 'dbm cfg' || CASE WHEN value_flags = 'AUTOMATIC' THEN ' (AUTOMATIC)' ELSE '' END
FROM sysibmadm.dbmcfg
ORDER BY 1;
