-- Optimizer statistics after the load and the keys, one table at a time
-- through SYSPROC.ADMIN_CMD (RUNSTATS is a CLP command).
--   db2 "CALL SYSPROC.ADMIN_CMD('RUNSTATS ON TABLE DB2INST1.LINEITEM WITH DISTRIBUTION AND DETAILED INDEXES ALL')"

-- name: runstats
CALL SYSPROC.ADMIN_CMD('RUNSTATS ON TABLE "${schema}"."${table}" WITH DISTRIBUTION AND DETAILED INDEXES ALL');
