// Quiet sections for tests that run side by side (docs/testing.md, "Quiet sections").
//
// The sqlite, live and fault tiers run many test files at once, across
// packages. A few assertions measure the machine rather than the code: a
// cluster-wide TPM counter divided by our NOPM, an arrival rate achieved within
// 5%, a page that must answer within 200 ms. Those parts run inside
// `quiet(fn)`: while `fn` runs, no other participating test runs, anywhere on
// the machine; everything else keeps running side by side.
//
// It is a readers-writer lock on two files, held with flock(1) child processes
// (an fd lock dies with its holder, so a crashed test never leaves it held):
// every participating test holds `room` shared (scripts/vitest-shared-lock.mjs
// takes it around each test and the file's beforeAll); `quiet` takes
// `turnstile` exclusive, then `room` exclusive. Readers pass the turnstile on
// their way in, so a waiting quiet section is not starved by new tests: it waits
// only for the tests already running to end.
//
// That wait (the drain) is the cost: while it lasts no new test starts anywhere.
// So quiet sections share drains. A quiet section holds `pending` shared from
// before the turnstile until it ends, and a new test first waits (at most
// PENDING_WAIT_S) until no quiet section is pending: when several are pending
// they run one after the other in one drain, instead of racing the new tests
// for the turnstile and draining once each. And a quiet section keeps its
// `pending` hold for KEEP_MS after it ends: the next test of the same file, when
// it is quiet too, runs without a drain of its own. `pending` only decides who
// goes first; `room` and `turnstile` alone make the guarantee.
//
// Two scopes. Most quiet sections only need the database servers to
// themselves (a server-wide TPM counter, template1 held, a global setting):
// `quiet(fn, 'db')` waits only for the tests that use a database server, and
// the sqlite tier (SQLite files in temp dirs, no server: scripts/vitest-tiers.mjs
// sets SLEDGE_TEST_TIER) keeps running beside it. `quiet(fn)` (scope 'all')
// still waits for every test: arrival rates, time budgets, CPU shares. Each
// scope has its own room, turnstile and pending files; a test that uses the
// servers holds both rooms shared, always `all` first, then `db`, and a 'db'
// section keeps its test's `all` hold, so an 'all' section waits for it too.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIR = process.env.SLEDGE_TEST_LOCK_DIR || tmpdir();
/** Each scope's lock files: the room, its turnstile, and the quiet sections pending on it. */
const SCOPES = {
  all: { room: join(DIR, 'sledge-tests.room.lock'), turnstile: join(DIR, 'sledge-tests.turnstile.lock'), pending: join(DIR, 'sledge-tests.pending.lock') },
  db: { room: join(DIR, 'sledge-tests.room-db.lock'), turnstile: join(DIR, 'sledge-tests.turnstile-db.lock'), pending: join(DIR, 'sledge-tests.pending-db.lock') },
};

/** How long a new test waits for pending quiet sections before it queues at the turnstile anyway. */
const PENDING_WAIT_S = 120;
/** How long a quiet section's `pending` hold outlives it, for the same file's next quiet test. */
const KEEP_MS = 2_000;

const LOG = process.env.SLEDGE_TEST_LOCK_LOG;

/**
 * The scopes this process's tests hold shared: every test holds `all`; a test
 * that may use a database server holds `db` too. Only the sqlite tier, whose
 * files run on SQLite files in temp dirs, is known not to (SLEDGE_TEST_TIER, set
 * per vitest project by scripts/vitest-tiers.mjs; unset, as in the browser
 * suite, counts as using them).
 */
function testScopes() {
  return process.env.SLEDGE_TEST_TIER === 'sqlite' ? ['all'] : ['all', 'db'];
}

/**
 * With SLEDGE_TEST_LOCK_LOG=<file>: one JSON line per hold, written when it is
 * released: kind (shared: a test or a file's beforeAll; quiet: a quiet section;
 * with "-db" for the database scope), pid, file, test, waitMs (before the hold
 * was granted), holdMs, at (ISO time of the release). docs/testing.md, "Quiet sections".
 */
function logHold(kind, t0, t1) {
  if (!LOG) return;
  const t2 = Date.now();
  const line = { kind, pid: process.pid, file: state.file ?? null, test: state.test ?? null, waitMs: t1 - t0, holdMs: t2 - t1, at: new Date(t2).toISOString() };
  try {
    appendFileSync(LOG, JSON.stringify(line) + '\n');
  } catch {
    // The log is a measurement aid: a failed write never fails a test.
  }
}

/** Hold `path` (flock -s or -x) until the returned release() is called. */
function hold(path, mode) {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', [mode === 'shared' ? '-s' : '-x', path, 'sh', '-c', 'echo held; exec cat >/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let done = false;
    child.once('error', (e) => {
      if (!done) reject(new Error(`test lock: cannot run flock(1) (util-linux): ${e.message}`));
      done = true;
    });
    child.once('exit', (code) => {
      if (!done) reject(new Error(`test lock: flock ${mode} ${path} exited with ${code}`));
      done = true;
    });
    child.stdout.once('data', () => {
      done = true;
      child.unref();
      child.stdout.destroy();
      child.stdin.unref?.();
      resolve(
        () =>
          new Promise((res) => {
            if (child.exitCode !== null) return res();
            child.ref();
            child.once('exit', () => res());
            child.stdin.end();
          }),
      );
    });
  });
}

/**
 * Wait until no quiet section holds `pending` (flock -x, let go at once), or
 * PENDING_WAIT_S, whichever comes first: either way the caller then queues at
 * the turnstile as before, so this never delays a test by more than that.
 */
function yieldToQuiet(pending) {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', ['-x', '-w', String(PENDING_WAIT_S), pending, 'true'], { stdio: 'ignore' });
    child.once('error', (e) => reject(new Error(`test lock: cannot run flock(1) (util-linux): ${e.message}`)));
    child.once('exit', () => resolve());
  });
}

// Per scope: `shared` is the release of this process's shared hold, or null;
// `keep` the `pending` hold a quiet section left for the next one ({ release,
// timer }) or null. On globalThis: the setup file and the test file may load
// this module as two instances. `file` and `test` name the running test for the
// log (set by the setup file).
const state = (globalThis.__sledgeTestLock ??= { shared: {}, keep: {}, file: null, test: null });

/** The `pending` hold a quiet section of this process left on `scope`, taken back (or null). */
function takeKeep(scope) {
  const k = state.keep[scope];
  state.keep[scope] = null;
  if (!k) return null;
  clearTimeout(k.timer);
  return k.release;
}

/** Let go of the `pending` holds quiet sections of this process left, if any (one scope, or both). */
export async function dropKeep(scope) {
  for (const s of scope ? [scope] : ['db', 'all']) {
    const r = takeKeep(s);
    if (r) await r();
  }
}

/** Take one scope's room shared, passing its turnstile first. */
async function holdRoom(scope) {
  const L = SCOPES[scope];
  const t0 = Date.now();
  // Not when this process keeps `pending` itself: it would wait for its own hold.
  if (!state.keep[scope]) await yieldToQuiet(L.pending);
  const gate = await hold(L.turnstile, 'exclusive');
  try {
    const room = await hold(L.room, 'shared');
    const t1 = Date.now();
    state.shared[scope] = () => {
      logHold(scope === 'all' ? 'shared' : 'shared-db', t0, t1);
      return room();
    };
  } finally {
    await gate();
  }
}

/** Take the rooms this process's tests use shared (`all`, then `db`); a no-op for those already held. */
export async function holdShared() {
  if (process.env.SLEDGE_TEST_LOCKS === '0') return;
  for (const scope of testScopes()) if (!state.shared[scope]) await holdRoom(scope);
}

/** Drop this process's shared hold on one scope, if any. */
async function releaseScope(scope) {
  const r = state.shared[scope];
  state.shared[scope] = null;
  if (r) await r();
}

/** Drop this process's shared holds, if any (`db` first, then `all`). */
export async function releaseShared() {
  await releaseScope('db');
  await releaseScope('all');
}

/**
 * How long a quiet test may wait for the room before its own time starts: the
 * tests already running must end first, and the longest of them (the fuzzer)
 * runs for minutes. A quiet test's timeout is quietTimeout(its own budget).
 */
export const QUIET_WAIT_MS = 20 * 60_000;

/** A quiet test's vitest timeout: its own budget plus the wait for the room. */
export function quietTimeout(ms) {
  return process.env.SLEDGE_TEST_LOCKS === '0' ? ms : ms + QUIET_WAIT_MS;
}

/**
 * Run `fn` with no other participating test running in `scope`: 'all' (the
 * default) waits for every test already running and keeps new ones out; 'db'
 * does so for the tests that may use a database server only (every tier but
 * sqlite), while the sqlite tier carries on. Lets them go when `fn` settles.
 */
export async function quiet(fn, scope = 'all') {
  if (process.env.SLEDGE_TEST_LOCKS === '0') return fn();
  const L = SCOPES[scope];
  if (!L) throw new Error(`test lock: unknown quiet scope ${scope} (all or db)`);
  // An 'all' section lets go of both shared holds; a 'db' one of its db hold
  // only, keeping `all`, so that an 'all' section elsewhere still waits for it.
  if (scope === 'all') await releaseShared();
  else await releaseScope('db');
  const t0 = Date.now();
  const pending = takeKeep(scope) ?? (await hold(L.pending, 'shared'));
  try {
    const gate = await hold(L.turnstile, 'exclusive');
    try {
      const room = await hold(L.room, 'exclusive');
      const t1 = Date.now();
      try {
        return await fn();
      } finally {
        logHold(scope === 'all' ? 'quiet' : 'quiet-db', t0, t1);
        await room();
      }
    } finally {
      await gate();
    }
  } finally {
    await dropKeep(scope);
    const timer = setTimeout(() => void dropKeep(scope), KEEP_MS);
    timer.unref?.();
    state.keep[scope] = { release: pending, timer };
  }
}
