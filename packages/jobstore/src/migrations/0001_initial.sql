-- Sledge job store, schema version 1.
-- Content mirrors HammerDB's JOBMAIN / JOBOUTPUT / JOBTIMING / JOBTCOUNT / JOBMETRIC / JOBSYSTEM;
-- the names and shapes are Sledge's own. Every per-job table carries job_id and an index on it.
-- JSON columns hold the exact JSON text the store was given.

-- One row per build, check, delete or run job (JOBMAIN).
CREATE TABLE job (
  id             TEXT PRIMARY KEY,
  type           TEXT NOT NULL,
  workload       TEXT NOT NULL,
  engine         TEXT NOT NULL,
  status         TEXT NOT NULL,
  label          TEXT,
  profile_id     INTEGER NOT NULL DEFAULT 0,
  created_at     TEXT NOT NULL,
  started_at     TEXT,
  ended_at       TEXT,
  config         TEXT NOT NULL,
  seed           INTEGER NOT NULL,
  engine_version TEXT,
  client_version TEXT NOT NULL,
  error          TEXT,
  summary        TEXT
) STRICT;
CREATE INDEX job_created_idx ON job (created_at);
CREATE INDEX job_engine_idx ON job (engine, created_at);
CREATE INDEX job_status_idx ON job (status);
CREATE INDEX job_profile_idx ON job (profile_id);

-- The TPROC-C result of a run job (HammerDB parses it from VU 1 output; we keep it typed).
CREATE TABLE job_result (
  job_id     TEXT PRIMARY KEY,
  nopm       REAL NOT NULL,
  tpm        REAL NOT NULL,
  active_vus REAL NOT NULL,
  data       TEXT NOT NULL
) STRICT;

-- Output lines (JOBOUTPUT). seq is per job, 1-based and contiguous. vu 0 = status stream.
CREATE TABLE job_output (
  job_id TEXT NOT NULL,
  seq    INTEGER NOT NULL,
  vu     INTEGER NOT NULL,
  ts     REAL NOT NULL,
  text   TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX job_output_vu_idx ON job_output (job_id, vu, seq);

-- Engine transaction counter samples (JOBTCOUNT): TPM and NOPM every tcRefreshSec.
CREATE TABLE job_tcount (
  job_id TEXT NOT NULL,
  ts     REAL NOT NULL,
  tpm    REAL NOT NULL,
  nopm   REAL NOT NULL
) STRICT;
CREATE INDEX job_tcount_idx ON job_tcount (job_id, ts);

-- Client-side per-second rates by transaction type (the whole sample as JSON).
CREATE TABLE job_client_rate (
  job_id TEXT NOT NULL,
  ts     REAL NOT NULL,
  data   TEXT NOT NULL
) STRICT;
CREATE INDEX job_client_rate_idx ON job_client_rate (job_id, ts);

-- Interval latency percentiles per transaction type (the whole sample as JSON).
CREATE TABLE job_latency (
  job_id TEXT NOT NULL,
  ts     REAL NOT NULL,
  data   TEXT NOT NULL
) STRICT;
CREATE INDEX job_latency_idx ON job_latency (job_id, ts);

-- Time profile (JOBTIMING): per VU and per transaction; vu 0 is the summary row.
CREATE TABLE job_timing (
  job_id     TEXT NOT NULL,
  vu         INTEGER NOT NULL,
  proc       TEXT NOT NULL,
  calls      INTEGER NOT NULL,
  min_ms     REAL NOT NULL,
  avg_ms     REAL NOT NULL,
  max_ms     REAL NOT NULL,
  total_ms   REAL NOT NULL,
  p25_ms     REAL NOT NULL,
  p50_ms     REAL NOT NULL,
  p75_ms     REAL NOT NULL,
  p95_ms     REAL NOT NULL,
  p99_ms     REAL NOT NULL,
  sd_ms      REAL NOT NULL,
  ratio_pct  REAL NOT NULL,
  elapsed_ms REAL NOT NULL,
  histogram  TEXT,
  UNIQUE (job_id, vu, proc)
) STRICT;

-- Latest snapshots a job page shows: 'vus' (VU grid), 'progress' (build), 'check' (checkschema).
CREATE TABLE job_state (
  job_id     TEXT NOT NULL,
  kind       TEXT NOT NULL,
  data       TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (job_id, kind)
) STRICT, WITHOUT ROWID;

-- Generic sampled metrics (JOBMETRIC and beyond): kind 'cpu', 'ash', ...; source = host or agent.
CREATE TABLE job_metric (
  job_id TEXT NOT NULL,
  kind   TEXT NOT NULL,
  ts     REAL NOT NULL,
  source TEXT,
  data   TEXT NOT NULL
) STRICT;
CREATE INDEX job_metric_idx ON job_metric (job_id, kind, ts);

-- System information per source (JOBSYSTEM): client host, database server, agent ...
CREATE TABLE job_system (
  job_id     TEXT NOT NULL,
  source     TEXT NOT NULL,
  info       TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (job_id, source)
) STRICT, WITHOUT ROWID;

-- Share links: an unguessable token that resolves to one job.
CREATE TABLE share_link (
  token      TEXT PRIMARY KEY,
  job_id     TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX share_link_job_idx ON share_link (job_id);

-- Saved configurations: a target (secrets kept: the file is the user's own) plus TPROC-C options.
CREATE TABLE saved_config (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT NOT NULL UNIQUE,
  target     TEXT NOT NULL,
  tprocc     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
