/** Take the shared side of the machine-wide test lock, every room this process's tier uses (a no-op for those held). */
export function holdShared(): Promise<void>;
/** Drop this process's shared holds, if any. */
export function releaseShared(): Promise<void>;
/**
 * Run `fn` with no other participating test running in `scope`: 'all' (default)
 * anywhere on the machine; 'db' among the tests that may use a database server
 * (the sqlite tier keeps running).
 */
export function quiet<T>(fn: () => Promise<T>, scope?: 'all' | 'db'): Promise<T>;
/** How long a quiet test may wait for the room (the tests already running end first). */
export const QUIET_WAIT_MS: number;
/** A quiet test's vitest timeout: its own budget `ms` plus the wait for the room. */
export function quietTimeout(ms: number): number;
/** Let go of the `pending` holds this process's last quiet sections kept for the next one (one scope, or both). */
export function dropKeep(scope?: 'all' | 'db'): Promise<void>;
