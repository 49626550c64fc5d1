import type { OracleTarget } from '@sledge/protocol';
import { oracleVars } from '../tprocc/admin.js';
import { oracledb } from './library.js';

/** Fail early, before any socket: the library must load; the admin also splices names into DDL, so they must be valid. */
export function preflight(t: OracleTarget, admin: boolean): void {
  oracledb();
  if (admin) oracleVars(t);
}
