import type { ErrorClassName } from '@sledge/protocol';
import type { ErrorKind } from './driver.js';

/**
 * The run's error class of a driver's error kind: deadlocks count as
 * serialization failures, lock waits and statement timeouts as timeouts.
 */
export function errorClassOf(kind: ErrorKind): ErrorClassName {
  switch (kind) {
    case 'deadlock':
    case 'serialization':
      return 'serialization';
    case 'lock-timeout':
    case 'timeout':
      return 'timeout';
    case 'connection':
      return 'connection';
    case 'constraint':
      return 'constraint';
    default:
      return 'other';
  }
}
