-- Results become workload-neutral. Each row names its workload, its headline
-- figure (metric: the result field it comes from, value, unit) and keeps the
-- workload's own result document (data, JSON, unchanged). nopm, tpm and
-- active_vus stay as queryable columns for TPROC-C (best per engine, profiles,
-- compare) but are no longer NOT NULL: another workload's result has none.
-- Every stored result is a TPROC-C one (the only workload before this step):
-- its headline is its NOPM.
CREATE TABLE job_result_v2 (
  job_id     TEXT PRIMARY KEY,
  workload   TEXT NOT NULL,
  metric     TEXT NOT NULL,
  value      REAL NOT NULL,
  unit       TEXT NOT NULL,
  nopm       REAL,
  tpm        REAL,
  active_vus REAL,
  data       TEXT NOT NULL
) STRICT;

INSERT INTO job_result_v2 (job_id, workload, metric, value, unit, nopm, tpm, active_vus, data)
SELECT r.job_id, coalesce(j.workload, 'tprocc'), 'nopm', r.nopm, 'NOPM', r.nopm, r.tpm, r.active_vus, r.data
FROM job_result r LEFT JOIN job j ON j.id = r.job_id;

DROP TABLE job_result;
ALTER TABLE job_result_v2 RENAME TO job_result;
CREATE INDEX job_result_workload_idx ON job_result (workload, value);
