import type { Db2Target } from '@sledge/protocol';
import { db2ConnectionString } from './config.js';
import { ibmDb } from './library.js';

/**
 * The library must load (else SLEDGE_E_DRIVER_UNAVAILABLE with the install
 * steps) and the target must make a valid CLI connection string.
 */
export function preflight(t: Db2Target): void {
  ibmDb();
  db2ConnectionString(t);
}
