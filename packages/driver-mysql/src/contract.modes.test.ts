import { driverContract } from '@sledge/driver-testkit';
import { MARIADB } from './engine/flavour.js';
import { mysqlFamilyDriver } from './index.js';
import { mariadbTarget } from './testing/live.js';
import type { MariadbTarget } from '@sledge/protocol';

// The other VU modes that need a build of their own. (Server-side prepared
// CALLs need no other build: they run on contract.mariadb.test.ts's schema,
// a VU variant there.)

// Client-side statements, no procedures; built through the multi-row INSERT
// fallback: the loader does not announce LOCAL_FILES, so the server refuses
// LOAD DATA LOCAL (error 4166) and the session switches to INSERT batches.
driverContract({
  // No quiet section: the mixed-workload test asserts that the engine TPM counter grows, and
  // MariaDB's (Com_commit + Com_rollback, SHOW GLOBAL STATUS) only grows, whatever else runs.
  name: 'mariadb noStoredProcs, INSERT-fallback build',
  driver: mysqlFamilyDriver<MariadbTarget>(MARIADB, { loader: { localFiles: false } }),
  target: mariadbTarget('sledge_mytest_modes', { noStoredProcs: true }),
});
