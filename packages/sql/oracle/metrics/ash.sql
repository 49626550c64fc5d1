-- Active-session-history sampling for Oracle (ecosystem.md §3.1), run once
-- per second by the system user on the sampler's own session. The driver
-- turns the rows into AshSamples (packages/driver-oracle/src/engine/ash/rows.ts).
-- By hand: sqlplus system/<password>@<connect string>, then the statement
-- (binds as :name).

-- name: pack_access
-- V$ACTIVE_SESSION_HISTORY is part of the Diagnostics Pack; with
-- control_management_pack_access = NONE it stays empty.
SELECT value AS value FROM v$parameter WHERE name = 'control_management_pack_access';

-- name: sessions
-- Licence-safe default: the user sessions active now, from V$SESSION (no
-- pack needed), but the sampler's own and idle waits. state WAITING means a
-- wait is in progress; the WAITED ... states mean the session is on CPU
-- since its last wait. blocking_serial comes from the blocker's row.
-- age_ms is 0: the rows are as of now.
-- Scope (metrics.ashScope): :scope_user is the target's TPROC-C user (its
-- schema is the benchmark's), :server 1 for the whole instance. in_scope:
-- that user's sessions; without :server no other session (other schemas'
-- SQL text, other users) leaves the server.
SELECT x.*
  FROM (SELECT s.sid AS sid,
               s.serial# AS serial,
               s.username AS username,
               s.program AS program,
               s.module AS module,
               s.client_identifier AS client_identifier,
               CASE WHEN s.state = 'WAITING' THEN 'WAITING' ELSE 'ON CPU' END AS session_state,
               CASE WHEN s.state = 'WAITING' THEN s.wait_class END AS wait_class,
               CASE WHEN s.state = 'WAITING' THEN s.event END AS event,
               s.sql_id AS sql_id,
               s.blocking_session AS blocking_session,
               b.serial# AS blocking_serial,
               'FOREGROUND' AS session_type,
               (SELECT SUBSTR(q.sql_text, 1, 1000) FROM v$sqlarea q WHERE q.sql_id = s.sql_id AND ROWNUM = 1) AS sql_text,
               0 AS age_ms,
               0 AS sample_id,
               CASE WHEN s.username = :scope_user OR s.username = UPPER(:scope_user) THEN 1 ELSE 0 END AS in_scope
          FROM v$session s
          LEFT JOIN v$session b ON b.sid = s.blocking_session
         WHERE s.status = 'ACTIVE'
           AND s.type = 'USER'
           AND s.sid <> TO_NUMBER(SYS_CONTEXT('USERENV', 'SID'))
           AND NOT (s.state = 'WAITING' AND s.wait_class = 'Idle')) x
 WHERE x.in_scope = 1 OR :server = 1;

-- name: ash_latest
-- Diagnostics Pack (target.useAwr): where the in-memory ASH stands now.
SELECT NVL(MAX(sample_id), 0) AS sample_id FROM v$active_session_history;

-- name: ash_since
-- Diagnostics Pack (target.useAwr): the ASH rows sampled after :since_id
-- (Oracle samples active sessions every second, foreground and background).
-- age_ms is how long ago the row was sampled by the server's clock, so the
-- driver can stamp it on its own clock without comparing time zones.
-- Scope as in `sessions` (:scope_user, :server); background processes
-- (LGWR, DBWR ...) are the instance's own work and stay in scope.
SELECT x.*
  FROM (SELECT h.session_id AS sid,
               h.session_serial# AS serial,
               u.username AS username,
               h.program AS program,
               h.module AS module,
               h.client_id AS client_identifier,
               h.session_state AS session_state,
               h.wait_class AS wait_class,
               h.event AS event,
               h.sql_id AS sql_id,
               h.blocking_session AS blocking_session,
               h.blocking_session_serial# AS blocking_serial,
               h.session_type AS session_type,
               (SELECT SUBSTR(q.sql_text, 1, 1000) FROM v$sqlarea q WHERE q.sql_id = h.sql_id AND ROWNUM = 1) AS sql_text,
               ROUND(EXTRACT(DAY FROM (CAST(SYSTIMESTAMP AS TIMESTAMP) - h.sample_time)) * 86400000
                   + EXTRACT(HOUR FROM (CAST(SYSTIMESTAMP AS TIMESTAMP) - h.sample_time)) * 3600000
                   + EXTRACT(MINUTE FROM (CAST(SYSTIMESTAMP AS TIMESTAMP) - h.sample_time)) * 60000
                   + EXTRACT(SECOND FROM (CAST(SYSTIMESTAMP AS TIMESTAMP) - h.sample_time)) * 1000) AS age_ms,
               h.sample_id AS sample_id,
               CASE WHEN u.username = :scope_user OR u.username = UPPER(:scope_user) OR h.session_type = 'BACKGROUND' THEN 1 ELSE 0 END AS in_scope
          FROM v$active_session_history h
          LEFT JOIN dba_users u ON u.user_id = h.user_id
         WHERE h.sample_id > :since_id
           AND h.session_id <> TO_NUMBER(SYS_CONTEXT('USERENV', 'SID'))
           AND NVL(h.wait_class, 'x') <> 'Idle') x
 WHERE x.in_scope = 1 OR :server = 1
 ORDER BY x.sample_id, x.sid;
