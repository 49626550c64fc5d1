-- Active-session-history sampling for MySQL (and MariaDB: its
-- packages/sql/mariadb/metrics/ash.sql replaces only the statements that differ).
-- Run once per second on the sampler's own session; the driver turns the
-- rows into AshSamples (packages/driver-mysql/src/engine/ash/). By hand:
--   mysql -h host -u root -p -e "<statement>"

-- name: performance_schema_enabled
-- performance_schema is a startup option: OFF (MariaDB's default) leaves
-- only information_schema.PROCESSLIST.
SELECT @@performance_schema AS enabled;

-- name: consumers
-- The consumers ASH reads; both are off by default in MariaDB, the waits
-- one also in MySQL 8.
SELECT NAME AS name, ENABLED AS enabled
  FROM performance_schema.setup_consumers
 WHERE NAME IN ('events_waits_current', 'events_statements_current');

-- name: enable_consumers
-- Runtime only (until restart), as HammerDB's metrics do; needs UPDATE on performance_schema.
UPDATE performance_schema.setup_consumers SET ENABLED = 'YES'
 WHERE NAME IN ('events_waits_current', 'events_statements_current');

-- name: enable_instruments
UPDATE performance_schema.setup_instruments SET ENABLED = 'YES'
 WHERE (NAME LIKE 'wait/%' OR NAME LIKE 'statement/%') AND ENABLED = 'NO';

-- name: ps_sessions
-- Foreground threads running a command (not Sleep, not daemons or binlog
-- dumps), but the sampler's own. A thread has a row per current wait
-- (nested waits): END_EVENT_ID IS NULL keeps only waits in progress, else
-- finished waits would show as current (HammerDB #905). The driver keeps
-- the innermost wait (highest EVENT_ID) per thread. No wait = CPU. The
-- statement text falls back to PROCESSLIST_INFO when the statements
-- consumer is off.
-- Scope (metrics.ashScope): the first ? is the target database, the second
-- its user, the third 1 for the whole server. in_scope: a thread of that
-- user whose current database is the target's; without the third ? no
-- other thread leaves the server (other schemas' SQL text, other users).
SELECT x.*
  FROM (SELECT t.THREAD_ID AS thread_id,
               t.PROCESSLIST_ID AS processlist_id,
               t.PROCESSLIST_USER AS user,
               t.PROCESSLIST_COMMAND AS command,
               t.PROCESSLIST_STATE AS state,
               w.EVENT_ID AS wait_event_id,
               w.EVENT_NAME AS wait_event,
               w.OBJECT_NAME AS wait_object,
               LEFT(COALESCE(s.SQL_TEXT, t.PROCESSLIST_INFO), 1000) AS sql_text,
               s.DIGEST AS digest,
               LEFT(s.DIGEST_TEXT, 1000) AS digest_text,
               (SELECT a.ATTR_VALUE FROM performance_schema.session_connect_attrs a
                 WHERE a.PROCESSLIST_ID = t.PROCESSLIST_ID AND a.ATTR_NAME = 'program_name' LIMIT 1) AS program_name,
               (SELECT a.ATTR_VALUE FROM performance_schema.session_connect_attrs a
                 WHERE a.PROCESSLIST_ID = t.PROCESSLIST_ID AND a.ATTR_NAME = 'sledge_role' LIMIT 1) AS sledge_role,
               COALESCE(t.PROCESSLIST_DB = ? AND t.PROCESSLIST_USER = ?, 0) AS in_scope
          FROM performance_schema.threads t
          LEFT JOIN performance_schema.events_waits_current w
                 ON w.THREAD_ID = t.THREAD_ID AND w.END_EVENT_ID IS NULL
          LEFT JOIN performance_schema.events_statements_current s
                 ON s.THREAD_ID = t.THREAD_ID
         WHERE t.TYPE = 'FOREGROUND'
           AND t.PROCESSLIST_ID IS NOT NULL
           AND t.PROCESSLIST_ID <> CONNECTION_ID()
           AND t.PROCESSLIST_COMMAND NOT IN ('Sleep', 'Daemon', 'Binlog Dump', 'Binlog Dump GTID')) x
 WHERE x.in_scope = 1 OR ? = 1;

-- name: processlist
-- Without performance_schema: the sessions running a command, with the
-- state text the server shows (classified by heuristics in the driver).
-- Scope as in ps_sessions: the target database, its user, 1 for the whole server.
SELECT x.*
  FROM (SELECT p.ID AS processlist_id,
               p.USER AS user,
               p.COMMAND AS command,
               p.STATE AS state,
               LEFT(p.INFO, 1000) AS sql_text,
               COALESCE(p.DB = ? AND p.USER = ?, 0) AS in_scope
          FROM information_schema.PROCESSLIST p
         WHERE p.ID <> CONNECTION_ID()
           AND p.COMMAND NOT IN ('Sleep', 'Daemon', 'Binlog Dump', 'Binlog Dump GTID')) x
 WHERE x.in_scope = 1 OR ? = 1;

-- name: row_lock_waits
-- InnoDB transactions waiting for a row lock, with one blocker each
-- (MySQL 8: performance_schema.data_lock_waits). Needs the PROCESS
-- privilege; the wait is visible whatever the thread's state text says.
SELECT r.trx_mysql_thread_id AS waiting_id,
       MIN(bt.PROCESSLIST_ID) AS blocking_id
  FROM information_schema.INNODB_TRX r
  LEFT JOIN performance_schema.data_lock_waits w ON w.REQUESTING_ENGINE_TRANSACTION_ID = r.trx_id
  LEFT JOIN performance_schema.threads bt ON bt.THREAD_ID = w.BLOCKING_THREAD_ID
 WHERE r.trx_state = 'LOCK WAIT'
 GROUP BY r.trx_mysql_thread_id;
