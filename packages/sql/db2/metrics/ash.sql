-- Active-session-history sampling for Db2 LUW (ecosystem.md §3.1), run
-- once per second as the TPROC-C user on the sampler's own connection. The
-- driver turns the rows into AshSamples (packages/driver-db2/src/ash/rows.ts).
-- By hand: db2 -td@ -f ash.sql (after CONNECT TO <database>).
-- The MON_GET_* functions need EXECUTE on them, or SQLADM, DBADM or
-- DATAACCESS authority (no PUBLIC privilege by default).

-- name: agents
-- One row per application's coordinator agent that is doing something:
-- everything but "IDLE / WAIT / REQUEST" (waiting for the client's next
-- request), and not the sampler's own connection. Joined with the
-- connection (names), the running activity (statement text and executable
-- id) and, for lock waits, the application holding the lock.
-- The MON_GET_* functions report the connected database only (the
-- target's). Scope (metrics.ashScope): the first ? is the target's user,
-- the second 1 for every user. in_scope: that user's applications; without
-- the second ? no other user's statement text leaves the server.
SELECT x.*
  FROM (SELECT a.application_handle AS application_handle,
               a.event_state AS event_state,
               a.event_type AS event_type,
               a.event_object AS event_object,
               a.event_object_name AS event_object_name,
               c.application_name AS application_name,
               c.client_applname AS client_applname,
               c.session_auth_id AS session_auth_id,
               HEX(act.executable_id) AS executable_id,
               VARCHAR(SUBSTR(act.stmt_text, 1, 1000)) AS stmt_text,
               lw.hld_application_handle AS hld_application_handle,
               lw.lock_object_type AS lock_object_type,
               CASE WHEN c.session_auth_id = UPPER(CAST(? AS VARCHAR(128))) THEN 1 ELSE 0 END AS in_scope
          FROM TABLE(MON_GET_AGENT(CAST(NULL AS VARCHAR(128)), CAST(NULL AS VARCHAR(128)), CAST(NULL AS BIGINT), -2)) AS a
          LEFT JOIN TABLE(MON_GET_CONNECTION(CAST(NULL AS BIGINT), -2)) AS c
                 ON c.application_handle = a.application_handle AND c.member = a.member
          LEFT JOIN TABLE(MON_GET_ACTIVITY(CAST(NULL AS BIGINT), -2)) AS act
                 ON act.application_handle = a.application_handle
                AND act.uow_id = a.uow_id
                AND act.activity_id = a.activity_id
                AND act.member = a.member
          LEFT JOIN TABLE(MON_GET_APPL_LOCKWAIT(CAST(NULL AS BIGINT), -2)) AS lw
                 ON lw.req_application_handle = a.application_handle
         WHERE a.agent_type = 'COORDINATOR'
           AND a.application_handle <> MON_GET_APPLICATION_HANDLE()
           AND NOT (a.event_state = 'IDLE' AND a.event_type = 'WAIT' AND a.event_object = 'REQUEST')) AS x
 WHERE x.in_scope = 1 OR CAST(? AS INTEGER) = 1
@

-- name: set_client_applname
-- Names a session (client application name) so the sampler can tell which
-- VU it is: CLIENT_APPLNAME in MON_GET_CONNECTION.
CALL SYSPROC.WLM_SET_CLIENT_INFO(NULL, NULL, ?, NULL, NULL)
@
