import { driverContract } from '@sledge/driver-testkit';
import { MssqlTarget, validate } from '@sledge/protocol';
import { driver } from './index.js';
import { parseMssqlUrl } from './engine/url.js';

/**
 * The live driver contract, run only when SLEDGE_MSSQL_URL names a server,
 * e.g. mssql://sa:Passw0rd!@localhost:1433/sledge_contract?encrypt=true&trustServerCertificate=true
 * The suite DROPS and recreates that database; without a database in the
 * URL it uses sledge_contract.
 */
const url = process.env['SLEDGE_MSSQL_URL'];
const target: MssqlTarget = url
  ? { ...parseMssqlUrl(url), ...(new URL(url).pathname.length > 1 ? {} : { database: 'sledge_contract' }) }
  : validate(MssqlTarget, { engine: 'mssql', database: 'sledge_contract' });

driverContract<MssqlTarget>({
  name: 'mssql',
  driver,
  target,
  skip: url ? false : 'SLEDGE_MSSQL_URL not set',
  badAuthTarget: { ...target, password: 'wrong-password-for-test' },
  unreachableTarget: { ...target, port: 1 },
});
