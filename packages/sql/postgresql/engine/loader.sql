-- PostgreSQL's engine-level loader (driver engine/loader.ts): what a build
-- worker's session sends before its COPYs.

-- name: loader_session
-- Each build worker's session: a build commits once per table of each generated unit (TPROC-C:
-- about 60 commits per warehouse), and a failed build is deleted and built again, so these
-- commits need not wait for their WAL flush. The admin session's index, routine and ANALYZE
-- steps commit synchronously after the load, which flushes all the WAL before them: a completed
-- build is as durable as with the default.
SET synchronous_commit = off;
