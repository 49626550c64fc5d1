import { tprochContract } from '@sledge/driver-testkit';
import { MssqlTarget, validate } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { driver } from '../index.js';
import { parseMssqlUrl } from '../engine/url.js';

/**
 * The live TPROC-H contract, run only when SLEDGE_MSSQL_URL names a server,
 * e.g. mssql://sa:Passw0rd!@localhost:1433/?encrypt=true&trustServerCertificate=true
 * It DROPS and recreates the database sledge_tproch_offline.
 */
const url = process.env['SLEDGE_MSSQL_URL'];
const target: MssqlTarget = { ...(url ? parseMssqlUrl(url) : validate(MssqlTarget, { engine: 'mssql' })), database: 'sledge_tproch_offline' };

tprochContract<MssqlTarget>({
  name: 'mssql',
  driver,
  target,
  skip: url ? false : 'SLEDGE_MSSQL_URL not set',
  queries: sqlSet('mssql', 'tproch').statements('queries.sql'),
  // Billions of rows from a triple cross join of the catalog: minutes of work.
  slowQuery: 'SELECT COUNT_BIG(*) AS n FROM sys.all_objects a CROSS JOIN sys.all_objects b CROSS JOIN sys.all_objects c',
});
