/** Take the shared side of the machine-wide test lock (a no-op when held). */
export function holdShared(): Promise<void>;
/** Drop this process's shared hold, if any. */
export function releaseShared(): Promise<void>;
/** Run `fn` with no other participating test running anywhere on the machine. */
export function quiet<T>(fn: () => Promise<T>): Promise<T>;
/** How long a quiet test may wait for the room (the tests already running end first). */
export const QUIET_WAIT_MS: number;
/** A quiet test's vitest timeout: its own budget `ms` plus the wait for the room. */
export function quietTimeout(ms: number): number;
/** Let go of the `pending` hold this process's last quiet section kept for the next one, if any. */
export function dropKeep(): Promise<void>;
