import { SledgeError, type PostgresqlTarget } from '@sledge/protocol';
import { APP_MONITOR } from '../engine/config.js';
import { closeQuietly, connect } from '../engine/connect.js';

/**
 * The typed error a superuser connect to `t` fails with (engine/connect.test.ts,
 * engine/connect-timeout.test.ts): any other error, or a connect that succeeds, is thrown.
 */
export async function connectError(t: PostgresqlTarget): Promise<SledgeError> {
  try {
    await closeQuietly(await connect(t, 'superuser', APP_MONITOR));
  } catch (e) {
    if (SledgeError.is(e)) return e;
    throw e;
  }
  throw new Error('connect succeeded');
}
