import { driverContract } from '@sledge/driver-testkit';
import { Db2Target, validate } from '@sledge/protocol';
import { driver } from './index.js';
import { parseDb2Url } from './engine/url.js';

/**
 * The live driver contract, run only when SLEDGE_DB2_URL names a server,
 * e.g. db2://db2inst1:password@localhost:50000/SLEDGE (the database must
 * exist; the suite drops and recreates the TPROC-C tables and procedures in
 * the user's schema). ibm_db must load (see INSTALL_IBM_DB).
 */
const url = process.env['SLEDGE_DB2_URL'];
const target: Db2Target = url ? parseDb2Url(url) : validate(Db2Target, { engine: 'db2' });

driverContract<Db2Target>({
  name: 'db2',
  driver,
  target,
  skip: url ? false : 'SLEDGE_DB2_URL not set',
  badAuthTarget: { ...target, password: 'wrong-password-for-test' },
  unreachableTarget: { ...target, port: 1 },
});
