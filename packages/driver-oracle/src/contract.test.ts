import { driverContract } from '@sledge/driver-testkit';
import { OracleTarget, validate } from '@sledge/protocol';
import { driver } from './index.js';
import { parseOracleUrl } from './engine/url.js';

/**
 * The live driver contract, run only when SLEDGE_ORACLE_URL names a server,
 * e.g. oracle://sledge_contract:Tpcc_pw1@localhost:1521/FREEPDB1?system=system&systemPassword=manager
 * The suite DROPS and recreates that user (DROP USER ... CASCADE).
 */
const url = process.env['SLEDGE_ORACLE_URL'];
const target: OracleTarget = url ? parseOracleUrl(url) : validate(OracleTarget, { engine: 'oracle', user: 'sledge_contract' });
const port = /:(\d+)\//.exec(target.connectString);
const unreachable = port ? target.connectString.replace(`:${port[1]}/`, ':1/') : target.connectString.replace('/', ':1/');

driverContract<OracleTarget>({
  name: 'oracle',
  driver,
  target,
  skip: url ? false : 'SLEDGE_ORACLE_URL not set',
  badAuthTarget: { ...target, password: 'wrong-password-for-test', systemPassword: 'wrong-password-for-test' },
  unreachableTarget: { ...target, connectString: unreachable },
});
