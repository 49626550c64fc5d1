// vitest setupFile of the sqlite, live and fault tiers (scripts/vitest-tiers.mjs):
// each test, and the file's beforeAll hooks, run holding the shared side of the
// machine-wide test lock, so that a `quiet(fn)` section elsewhere waits for them
// and runs alone (scripts/test-quiet.mjs).
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { holdShared, releaseShared } from './test-quiet.mjs';

// The names the lock log (SLEDGE_TEST_LOCK_LOG) gives each hold.
const state = (globalThis.__sledgeTestLock ??= { shared: null, file: null, test: null });

beforeAll((suite) => {
  state.file = suite?.file?.name ?? suite?.name ?? null;
  state.test = '(beforeAll)';
  return holdShared();
});
beforeEach((ctx) => {
  state.test = ctx?.task?.name ?? null;
  return holdShared();
});
afterEach(releaseShared);
afterAll(releaseShared);
