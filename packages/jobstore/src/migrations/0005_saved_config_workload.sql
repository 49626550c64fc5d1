-- Saved configurations become (target, workload, options) (issue 32): a
-- configuration names its workload and keeps that workload's options as it
-- saves them (options: JSON, the workload's options object; see protocol's
-- savedOptionsToBody for a workload whose jobs carry more than one). Every
-- configuration stored before this step is a TPROC-C one: its `tprocc`
-- options become its options, unchanged. ALTER keeps each row's id and the
-- AUTOINCREMENT high-water mark, so no id of a deleted configuration is
-- handed out again.
ALTER TABLE saved_config ADD COLUMN workload TEXT NOT NULL DEFAULT 'tprocc';
ALTER TABLE saved_config ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
UPDATE saved_config SET options = tprocc;
ALTER TABLE saved_config DROP COLUMN tprocc;
