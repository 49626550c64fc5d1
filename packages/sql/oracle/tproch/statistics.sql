-- Optimizer statistics after the load and the keys: the whole schema of
-- the TPROC-H user, histograms where the optimizer wants them. Run as the
-- TPROC-H user:  sqlplus tpch/tpch@//host:1521/FREEPDB1 @statistics.sql

-- name: gather_schema_stats
BEGIN
  DBMS_STATS.GATHER_SCHEMA_STATS(
    ownname          => USER,
    estimate_percent => DBMS_STATS.AUTO_SAMPLE_SIZE,
    method_opt       => 'FOR ALL COLUMNS SIZE AUTO',
    degree           => DBMS_STATS.AUTO_DEGREE,
    cascade          => TRUE);
END;
/
