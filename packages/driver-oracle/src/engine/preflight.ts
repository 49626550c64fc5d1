import type { TproccTarget } from '@sledge/core';
import type { OracleTarget } from '@sledge/protocol';
import { oracleVars } from '../tprocc/admin.js';
import { oracledb } from './library.js';

/** Fail early, before any socket: the library must load; the admin also splices names into DDL, so they must be valid. */
export function preflight(t: TproccTarget<OracleTarget>, admin: true): void;
export function preflight(t: OracleTarget, admin: false): void;
export function preflight(t: OracleTarget, admin: boolean): void {
  oracledb();
  // Overloads: an admin preflight is given a target with the TPROC-C schema options.
  if (admin) oracleVars(t as TproccTarget<OracleTarget>);
}
