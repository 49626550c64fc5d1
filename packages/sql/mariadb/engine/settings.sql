-- MariaDB's engine settings and per-statement counters, as a run job records
-- them (server runner/samplers/engine-settings.ts, docs/compare.md). Its own
-- file: MariaDB keeps SHOW GLOBAL VARIABLES in information_schema (MySQL's
-- performance_schema.global_variables does not exist there).

-- name: settings
-- SHOW GLOBAL VARIABLES as a table: name, value, unit, source.
SELECT VARIABLE_NAME, VARIABLE_VALUE, NULL, 'global'
FROM information_schema.GLOBAL_VARIABLES
ORDER BY VARIABLE_NAME;

-- name: statements_missing
-- Why there are no per-statement counters (one row: the reason, or NULL).
SELECT CASE
         WHEN @@performance_schema = 0
           THEN 'performance_schema is OFF (performance_schema = ON in the server configuration; needs a restart)'
         WHEN (SELECT COUNT(*) FROM performance_schema.setup_consumers WHERE NAME = 'statements_digest' AND ENABLED = 'YES') = 0
           THEN 'the statements_digest consumer is disabled (UPDATE performance_schema.setup_consumers SET ENABLED = ''YES'' WHERE NAME = ''statements_digest'')'
       END AS reason;

-- name: statement_counters
-- Cumulative counters per statement digest of the target's database: id,
-- normalised text, calls, total time in ms (the timers are picoseconds).
SELECT DIGEST, DIGEST_TEXT, COUNT_STAR, SUM_TIMER_WAIT / 1000000000
FROM performance_schema.events_statements_summary_by_digest
WHERE SCHEMA_NAME = DATABASE() AND DIGEST IS NOT NULL;
