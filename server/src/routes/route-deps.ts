import { Type, parseTarget } from '@sledge/protocol';
import type { JobEngine } from '../engine/engine.js';

/** What every route plugin is given: the job engine (its store, drivers and jobs). */
export interface RouteDeps {
  engine: JobEngine;
}

/**
 * A route's validator that runs a protocol check instead of the schema's
 * plain one: friendlier messages, rules spanning fields, every field at fault
 * in one error. The route's schema still documents the body and types it.
 */
export const checkedBy = (check: (data: unknown) => unknown) => () => (data: unknown) => {
  try {
    check(data);
    return { value: data };
  } catch (e) {
    return { error: e as Error };
  }
};

/** Body of the routes that act on a target without a job (/targets/test, /targets/ash). */
export const TargetBody = Type.Object({
  target: Type.Unknown({ description: 'a target of any engine (see /targets/schema)' }),
  configId: Type.Optional(Type.Integer({ description: 'fill "********" secrets from this saved configuration' })),
  workload: Type.Optional(Type.String({ description: 'POST /targets/test: whose schema to look for (default tprocc)' })),
});
/** Checks the target the way a job does (engine first); configId is checked where the saved configuration is read. */
export const checkTargetBody = checkedBy((data) => parseTarget((data as { target?: unknown } | undefined)?.target));
