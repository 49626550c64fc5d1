// vitest setupFile of the sqlite, live and fault tiers (scripts/vitest-tiers.mjs):
// each test, and the file's beforeAll hooks, run holding the shared side of the
// machine-wide test lock, so that a `quiet(fn)` section elsewhere waits for them
// and runs alone (scripts/test-quiet.mjs). Waiting for the room is not the
// test's own time: these hooks get QUIET_WAIT_MS, not the hookTimeout, so a
// long drain or a queue of quiet sections never times a test out.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { QUIET_WAIT_MS, holdShared, releaseShared } from './test-quiet.mjs';

// The names the lock log (SLEDGE_TEST_LOCK_LOG) gives each hold.
const state = (globalThis.__sledgeTestLock ??= { shared: null, keep: null, file: null, test: null });

beforeAll((suite) => {
  state.file = suite?.file?.name ?? suite?.name ?? null;
  state.test = '(beforeAll)';
  return holdShared();
}, QUIET_WAIT_MS);
beforeEach((ctx) => {
  state.test = ctx?.task?.name ?? null;
  return holdShared();
}, QUIET_WAIT_MS);
afterEach(releaseShared);
afterAll(releaseShared);
