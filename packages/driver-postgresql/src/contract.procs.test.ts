import { beforeAll } from 'vitest';
import { driverContract } from '@sledge/driver-testkit';
import { quiet, quietTimeout } from '../../../scripts/test-quiet.mjs';
import { driver } from './index.js';
import { ensurePgAuthRole } from './testing/auth.js';
import { badAuth, contractTarget, PG_HOST, PG_PORT, unreachable } from './testing/contract.js';

// The driver contract with the transactions as stored procedures (target.storedProcs: CALL),
// built in a database and by a role of its own (contract.test.ts has the functions build).
const procs = contractTarget('sledge_pgtest_procs', 'sledge_pgtest_procs', { storedProcs: true });

beforeAll(() => ensurePgAuthRole({ host: PG_HOST, port: PG_PORT, superuser: procs.superuser, superuserPassword: procs.superuserPassword }));

driverContract({
  // The engine TPM counter is server-wide: only the database servers need to be quiet.
  quiet: { run: (fn) => quiet(fn, 'db'), timeout: quietTimeout },
  name: 'postgresql (procedures)',
  driver,
  target: procs,
  unreachableTarget: unreachable(procs),
  badAuthTarget: badAuth(procs),
});
