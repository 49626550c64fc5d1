import type { Logger } from '@sledge/core';
import type { Db2Session } from '../connection.js';
import { dbError } from '../errors.js';
import { ashStatement } from './sql.js';

/**
 * Name a Db2 session (CLIENT_APPLNAME) through WLM_SET_CLIENT_INFO. Best
 * effort: a server that refuses it still runs the workload; the session is
 * then sampled without its VU.
 */
export async function setClientApplName(s: Db2Session, name: string, log?: Logger): Promise<void> {
  try {
    await s.query(ashStatement('set_client_applname'), [name]);
  } catch (e) {
    log?.(`could not set the Db2 client application name ${name} (${dbError(e, 'WLM_SET_CLIENT_INFO').message}): ASH will not show which VU this session is`);
  }
}
