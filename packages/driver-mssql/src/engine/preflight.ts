import type { MssqlTarget } from '@sledge/protocol';
import { mssqlAuthentication } from './config.js';
import { tedious } from './library.js';
import { identifier } from './sql-text.js';

/** Fail early, before any socket, on what a user can fix in the target. */
export function preflight(t: MssqlTarget): void {
  tedious();
  identifier(t.database, 'target.database');
  mssqlAuthentication(t);
}
