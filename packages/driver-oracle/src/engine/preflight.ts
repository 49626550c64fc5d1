import type { OracleTarget } from '@sledge/protocol';
import { oracledb } from './library.js';

/**
 * Fail early, before any socket: the library must load. The names a
 * workload's admin session splices into DDL are that workload's to check
 * (TPROC-C: oracleVars in the OracleAdmin constructor, which opens no
 * connection).
 */
export function preflight(_t: OracleTarget): void {
  oracledb();
}
