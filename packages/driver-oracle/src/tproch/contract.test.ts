import { tprochContract } from '@sledge/driver-testkit';
import { OracleTarget, validate } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { driver } from '../index.js';
import { parseOracleUrl } from '../engine/url.js';

/**
 * The live TPROC-H contract, run only when SLEDGE_ORACLE_URL names a server,
 * e.g. oracle://x:y@localhost:1521/FREEPDB1?system=system&systemPassword=manager
 * It DROPS and recreates the user sledge_tproch_off (tablespace USERS).
 */
const url = process.env['SLEDGE_ORACLE_URL'];
const target: OracleTarget = { ...(url ? parseOracleUrl(url) : validate(OracleTarget, { engine: 'oracle' })), user: 'sledge_tproch_off', password: 'Tproch_pw1' };

tprochContract<OracleTarget>({
  name: 'oracle',
  driver,
  target,
  skip: url ? false : 'SLEDGE_ORACLE_URL not set',
  queries: sqlSet('oracle', 'tproch').statements('queries.sql'),
  // A triple cross join of the dictionary: far more than 5 seconds of work.
  slowQuery: 'SELECT COUNT(*) AS n FROM all_objects a, all_objects b, all_objects c',
});
