import { paramSessionContract, pgbenchTablesSqlOf } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { driver } from './index.js';
import { tempTarget } from './test-support/build.js';

// The script workload's session on a file the session creates (packages/sql/sqlite/script/).
paramSessionContract({ name: 'sqlite', driver, target: tempTarget('param'), sql: pgbenchTablesSqlOf(sqlSet('sqlite', 'script')) });
