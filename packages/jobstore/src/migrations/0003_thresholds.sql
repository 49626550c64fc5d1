-- Thresholds (issue 12 item 6): a run job's pass/fail evaluation, written
-- when the job ends. passed: 1/0, NULL for a job without thresholds or a
-- baseline (every job stored before this step); threshold_results: the JSON
-- list of each condition's outcome.
ALTER TABLE job ADD COLUMN passed INTEGER;
ALTER TABLE job ADD COLUMN threshold_results TEXT;
