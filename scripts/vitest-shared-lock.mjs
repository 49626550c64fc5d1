// vitest setupFile of the sqlite, live and fault tiers (scripts/vitest-tiers.mjs):
// each test, and the file's beforeAll hooks, run holding the shared side of the
// machine-wide test lock, so that a `quiet(fn)` section elsewhere waits for them
// and runs alone (scripts/test-quiet.mjs).
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { holdShared, releaseShared } from './test-quiet.mjs';

beforeAll(holdShared);
beforeEach(holdShared);
afterEach(releaseShared);
afterAll(releaseShared);
