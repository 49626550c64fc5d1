import { driverContract } from '@sledge/driver-testkit';
import { quiet, quietTimeout } from '../../../scripts/test-quiet.mjs';
import { MARIADB } from './engine/flavour.js';
import { mariadbDriver, mysqlFamilyDriver } from './index.js';
import { mariadbTarget } from './testing/live.js';
import type { MariadbTarget } from '@sledge/protocol';

// The other VU modes, one database used in turn (each suite drops and rebuilds it).

// Server-side prepared CALLs (mysql2 execute).
driverContract({
  quiet: { run: quiet, timeout: quietTimeout },
  name: 'mariadb prepared CALL',
  driver: mariadbDriver,
  target: mariadbTarget('sledge_mytest_modes', { prepared: true }),
});

// Client-side statements, no procedures; built through the multi-row INSERT
// fallback: the loader does not announce LOCAL_FILES, so the server refuses
// LOAD DATA LOCAL (error 4166) and the session switches to INSERT batches.
driverContract({
  quiet: { run: quiet, timeout: quietTimeout },
  name: 'mariadb noStoredProcs, INSERT-fallback build',
  driver: mysqlFamilyDriver<MariadbTarget>(MARIADB, { loader: { localFiles: false } }),
  target: mariadbTarget('sledge_mytest_modes', { noStoredProcs: true }),
});
