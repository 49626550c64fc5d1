-- Oracle's settings as a run job records them (server
-- runner/samplers/engine-settings.ts, docs/compare.md): the initialisation
-- parameters in effect for the session (v$parameter, which needs SELECT on
-- it: the SELECT_CATALOG_ROLE or a grant on v_$parameter).

-- name: settings
-- name, value, unit, source (default, or where it was set).
SELECT name, value, NULL,
       CASE WHEN isdefault = 'TRUE' THEN 'default'
            WHEN ismodified = 'MODIFIED' THEN 'session'
            WHEN ismodified = 'SYSTEM_MOD' THEN 'system (ALTER SYSTEM)'
            ELSE 'parameter file' END
FROM v$parameter
ORDER BY name;
