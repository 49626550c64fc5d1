import { readFileSync } from 'node:fs';
import { SledgeError } from '@sledge/protocol';

/** Descriptors kept free for everything but the VU sessions: the monitor, samplers, HTTP clients, job store, worker pipes. */
export const FD_RESERVE = 256;

/**
 * The open-files limit of this process (RLIMIT_NOFILE, soft), from
 * /proc/self/limits; null where that cannot be read (not Linux). Node raises
 * the soft limit to the hard limit when it starts, so this is the most the
 * process can open without a change outside it (ulimit -n, systemd's
 * LimitNOFILE=, /etc/security/limits.conf).
 */
export function openFilesLimit(text?: string): number | null {
  let s = text;
  if (s === undefined) {
    try {
      s = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const m = /^Max open files\s+(\S+)/m.exec(s);
  if (!m) return null;
  return m[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(m[1]);
}

/**
 * A run that opens `sessions` database sessions needs a descriptor for each:
 * fail before any VU starts, naming the field to lower and the limit to
 * raise, instead of failing logins half-way through the rampup (EMFILE).
 * Returns the line for the run's output.
 */
export function checkSessionFds(sessions: number, field: string, limit: number | null = openFilesLimit()): string | null {
  if (limit === null) return null;
  if (sessions + FD_RESERVE > limit) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      `this run opens ${sessions} database sessions but the Sledge process may open only ${limit} files (RLIMIT_NOFILE); ` +
        `raise it to at least ${sessions + FD_RESERVE} (ulimit -n ${sessions + FD_RESERVE} before starting Sledge, or LimitNOFILE= for a systemd service) or lower ${field}`,
      { field },
    );
  }
  return sessions >= 1000 ? `Open files limit ${limit === Number.POSITIVE_INFINITY ? 'unlimited' : String(limit)} for ${sessions} sessions` : null;
}
