-- Active-session-history sampling for SQL Server (ecosystem.md §3.1), run
-- once per second on the sampler's own session in master. The driver turns
-- the rows into AshSamples (packages/driver-mssql/src/engine/ash/rows.ts).
-- By hand: sqlcmd -S host -U sa -d master -Q "<statement>"

-- name: permission
-- Without VIEW SERVER STATE, sys.dm_exec_requests shows the caller's own
-- session only and sys.dm_os_waiting_tasks is refused (error 300).
SELECT SUSER_SNAME() AS login_name,
       HAS_PERMS_BY_NAME(NULL, NULL, 'VIEW SERVER STATE') AS has_view_server_state;

-- name: requests
-- The requests of user sessions running now, but the sampler's own. Each
-- request's wait comes from sys.dm_exec_requests; a parallel request whose
-- own worker does not wait takes the longest wait of its tasks
-- (sys.dm_os_waiting_tasks). query_hash is binary(8), sent as 0x... text.
-- The statement text is the part of the batch that runs now.
-- Scope (metrics.ashScope): @database the target database, @login the
-- target's login, @server 1 for the whole server. in_scope: a request of
-- that login in that database; without @server no other request (other
-- databases' statement text, other logins) leaves the server.
SELECT x.*
  FROM (SELECT r.session_id,
               r.status,
               r.command,
               r.wait_type,
               r.wait_time,
               r.last_wait_type,
               r.wait_resource,
               r.blocking_session_id,
               CONVERT(varchar(18), r.query_hash, 1) AS query_hash,
               s.login_name,
               s.program_name,
               w.wait_type AS task_wait_type,
               w.blocking_session_id AS task_blocking_session_id,
               w.resource_description,
               LEFT(SUBSTRING(t.text,
                              r.statement_start_offset / 2 + 1,
                              (CASE r.statement_end_offset WHEN -1 THEN DATALENGTH(t.text) ELSE r.statement_end_offset END
                               - r.statement_start_offset) / 2 + 1), 1000) AS statement_text,
               CASE WHEN r.database_id = DB_ID(@database) AND s.login_name = @login THEN 1 ELSE 0 END AS in_scope
          FROM sys.dm_exec_requests r
          JOIN sys.dm_exec_sessions s ON s.session_id = r.session_id
          OUTER APPLY sys.dm_exec_sql_text(r.sql_handle) t
          OUTER APPLY (SELECT TOP (1) wt.wait_type, wt.blocking_session_id, wt.resource_description
                         FROM sys.dm_os_waiting_tasks wt
                        WHERE wt.session_id = r.session_id
                        ORDER BY wt.wait_duration_ms DESC) w
         WHERE s.is_user_process = 1
           AND r.session_id <> @@SPID) x
 WHERE x.in_scope = 1 OR @server = 1;
