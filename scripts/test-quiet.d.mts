/** Take the shared side of the machine-wide test lock (a no-op when held). */
export function holdShared(): Promise<void>;
/** Drop this process's shared hold, if any. */
export function releaseShared(): Promise<void>;
/** Run `fn` with no other participating test running anywhere on the machine. */
export function quiet<T>(fn: () => Promise<T>): Promise<T>;
