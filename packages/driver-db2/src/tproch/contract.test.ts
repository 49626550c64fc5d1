import { tprochContract } from '@sledge/driver-testkit';
import { Db2Target, validate } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { driver } from '../index.js';
import { parseDb2Url } from '../engine/url.js';

/**
 * The live TPROC-H contract, run only when SLEDGE_DB2_URL names a server,
 * e.g. db2://db2inst1:password@localhost:50000/SLEDGE (the database must
 * exist). It DROPS and recreates the eight TPROC-H tables in the user's
 * schema. ibm_db must load (see INSTALL_IBM_DB); cancel() needs WLMADM or
 * DBADM (WLM_CANCEL_ACTIVITY).
 */
const url = process.env['SLEDGE_DB2_URL'];
const target: Db2Target = url ? parseDb2Url(url) : validate(Db2Target, { engine: 'db2' });

tprochContract<Db2Target>({
  name: 'db2',
  driver,
  target,
  skip: url ? false : 'SLEDGE_DB2_URL not set',
  queries: sqlSet('db2', 'tproch').statements('queries.sql'),
  // A triple cross join of the catalog: far more than 5 seconds of work.
  slowQuery: 'SELECT COUNT_BIG(*) AS n FROM syscat.columns a, syscat.columns b, syscat.columns c',
  cancelWithinMs: 3000,
});
