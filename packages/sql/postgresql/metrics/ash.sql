-- Active-session-history sampling (ecosystem.md §3.1). Each statement runs on
-- the sampler's own session once per second; the driver turns the rows into
-- AshSamples (packages/driver-postgresql/src/engine/ash/rows.ts).

-- name: visibility
-- Can this login read every session's state and query text? Superusers and
-- members of pg_read_all_stats can; others see only their own sessions.
SELECT current_user AS login,
       (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
         OR pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') AS sees_all;

-- name: pgsentinel_installed
-- The pgsentinel extension in this database (its view lives where it was created).
SELECT count(*) > 0 AS installed
FROM pg_extension
WHERE extname = 'pgsentinel';

-- name: activity
-- Every session that is not idle, but the sampler's own. Sessions this login
-- cannot read come back with state NULL and '<insufficient privilege>' as the
-- query: the driver counts them and leaves them out. query_id exists from
-- PG14 (filled when compute_query_id is on or auto with pg_stat_statements);
-- reading it through to_jsonb keeps one statement for every version.
-- pg_blocking_pids() takes the lock manager's locks: only call it for
-- sessions waiting on a heavyweight lock.
-- Scope (metrics.ashScope): $1 the target database, $2 its roles (target
-- user and superuser), $3 true for the whole server. in_scope: a client
-- backend of those roles in that database, a background or parallel worker
-- in that database, or a shared background process (no database, no SQL:
-- checkpointer, walwriter, ...). Without $3 nothing else leaves the server:
-- other databases' sessions, their users and their SQL text stay out.
SELECT s.*
FROM (
  SELECT a.pid,
         a.backend_type,
         a.state,
         a.wait_event_type,
         a.wait_event,
         a.usename,
         a.application_name,
         to_jsonb(a) ->> 'query_id' AS query_id,
         left(a.query, 1024) AS query,
         CASE WHEN a.wait_event_type = 'Lock' THEN pg_blocking_pids(a.pid) END AS blocking_pids,
         coalesce((a.datname = $1 AND (a.usename = ANY ($2::text[]) OR a.backend_type <> 'client backend'))
                  OR (a.datid IS NULL AND a.backend_type NOT IN ('client backend', 'walsender')), false) AS in_scope
  FROM pg_stat_activity a
  WHERE a.pid <> pg_backend_pid()
    AND (a.state IS NULL OR a.state <> 'idle')
) s
WHERE s.in_scope OR $3::boolean;

-- name: pgsentinel_since
-- pgsentinel's ring buffer (pgsentinel_ash.sampling_period, 1 s by default):
-- the rows sampled after $1 (unix ms). pgsentinel writes 'CPU' as the wait
-- event of active sessions that wait on nothing; blockerpid is 0 when
-- blockers = 0. query is the statement running (inside a function too),
-- top_level_query the client's statement; the first is what queryid names.
-- Scope as in `activity`: $2 the target database, $3 its roles, $4 true for
-- the whole server.
SELECT s.*
FROM (
  SELECT (extract(epoch FROM h.ash_time) * 1000)::float8 AS ts_ms,
         h.pid,
         h.backend_type,
         h.state,
         h.wait_event_type,
         h.wait_event,
         h.usename,
         h.application_name,
         nullif(h.queryid, 0)::text AS query_id,
         left(coalesce(nullif(h.query, ''), h.top_level_query), 1024) AS query,
         CASE WHEN h.blockers > 0 THEN h.blockerpid END AS blocking_pid,
         coalesce((h.datname = $2 AND (h.usename = ANY ($3::text[]) OR h.backend_type <> 'client backend'))
                  OR (h.datid IS NULL AND h.backend_type NOT IN ('client backend', 'walsender')), false) AS in_scope
  FROM pg_active_session_history h
  WHERE h.ash_time > to_timestamp($1::float8 / 1000)
    AND h.pid <> pg_backend_pid()
) s
WHERE s.in_scope OR $4::boolean
ORDER BY s.ts_ms, s.pid;

-- name: pgsentinel_latest
-- Where the ring buffer stands now: the first pgsentinel sample returns rows after this.
SELECT coalesce((extract(epoch FROM max(h.ash_time)) * 1000)::float8, 0) AS ts_ms
FROM pg_active_session_history h;
