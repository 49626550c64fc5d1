import { randomBytes } from 'node:crypto';

/**
 * A new job id in HammerDB's shape: 24 uppercase hex characters made of
 * 8 hex of unix seconds, 4 hex of a high-resolution clock and 12 hex from the
 * crypto RNG (48 random bits). Ids sort roughly by creation second.
 */
export function newJobId(): string {
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0')
    .slice(-8);
  const clock = (process.hrtime.bigint() & 0xffffn).toString(16).padStart(4, '0');
  const random = randomBytes(6).toString('hex');
  return (seconds + clock + random).toUpperCase();
}

/** An unguessable url-safe token for share links: 128 random bits, 22 base64url characters. */
export function newShareToken(): string {
  return randomBytes(16).toString('base64url');
}
