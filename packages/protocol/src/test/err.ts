import { SledgeError } from '../errors.js';

/** The SledgeError `fn` throws (tests): any other throw is rethrown, no throw fails. */
export function err(fn: () => unknown): SledgeError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SledgeError) return e;
    throw e;
  }
  throw new Error('expected a SledgeError');
}
