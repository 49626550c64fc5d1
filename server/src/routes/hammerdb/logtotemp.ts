import { appendFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isTerminal, type ServerFrame } from '@sledge/protocol';
import type { JobEngine } from '../../engine/engine.js';
import type { HdbSession } from './state.js';

/**
 * HammerDB's `vuset logtotemp 1`: the virtual users' output also goes to a
 * log file in the temp directory, `hammerdb.log` (appended to) or, with
 * `vuset unique 1`, `hammerdb_<GUID>.log`. The file is opened when the
 * virtual users are created (vucreate, or the build's own VUs) with a header
 * (`Hammerdb Log @ <date>` and a rule) and each line is written as
 * `Vuser N:<text>` (the status stream's own lines, such as ALL VIRTUAL USERS
 * COMPLETE, are not a VU's and are not logged), preceded by `Timestamp N @ <date>` when `vuset timestamps 1`.
 * The server running the jobs writes it: in-process (`hammerdbcli`,
 * `--local`) that is this machine, as with HammerDB's CLI.
 */

/** HammerDB's temp directory: $TMP when set, else the system's. */
export const tempDir = () => process.env['TMP'] || os.tmpdir();

/** Tcl's `clock format [clock seconds]`: `Sun Nov 29 16:30:00 UTC 2026` (UTC, as this server's clock prints it). */
export function tclClock(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]!;
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()]!;
  return `${day} ${mon} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** A GUID in HammerDB's shape: hex seconds, then clicks and random hex, upper case. */
const guid = () => (Math.floor(Date.now() / 1000).toString(16) + randomBytes(8).toString('hex')).toUpperCase();

/** The session's open log: the file the current virtual users write to (null: logging off or no VUs yet). */
const openLogs = new WeakMap<HdbSession, string>();

/**
 * Open the log for newly created virtual users when logtotemp is on: returns
 * HammerDB's `Logging activated to <file>` line, or null when logging is off.
 * A file that cannot be written is said, as HammerDB's `Could not create Logfile`.
 */
export function openVuLog(s: HdbSession): string | null {
  if (s.vu.logtotemp !== '1') {
    openLogs.delete(s);
    return null;
  }
  const file = join(tempDir(), s.vu.unique === '1' ? `hammerdb_${guid()}.log` : 'hammerdb.log');
  try {
    appendFileSync(file, `Hammerdb Log @ ${tclClock()}\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-\n`, { mode: 0o600 });
  } catch (e) {
    openLogs.delete(s);
    return `Could not create Logfile ${file}: ${e instanceof Error ? e.message : String(e)}`;
  }
  openLogs.set(s, file);
  return `Logging activated to ${file}`;
}

/** vudestroy closes the log (the next vucreate opens it again, with a new header). */
export function closeVuLog(s: HdbSession): void {
  openLogs.delete(s);
}

/** The log the session's VUs write to, if any. */
export const vuLogFile = (s: HdbSession): string | undefined => openLogs.get(s);

/**
 * Append a job's output to the session's open log as it streams, until the
 * job ends. Lines of the status stream (VU 0) are already `Vuser 1:...`
 * lines and are written as they are.
 */
export function logJobOutput(engine: JobEngine, s: HdbSession, jobId: string): void {
  const file = openLogs.get(s);
  if (!file) return;
  const stamps = s.vu.timestamps === '1';
  const seen = new Set<number>();
  const stream = engine.stream(jobId);
  const write = (text: string) => {
    try {
      appendFileSync(file, text);
    } catch {
      // The file went away (temp cleaned): the job goes on, as HammerDB's VUs do.
    }
  };
  const sub = {
    send(f: ServerFrame): boolean {
      const lines = f.t === 'output' ? f.lines : f.t === 'snapshot' ? f.snapshot.output : [];
      let chunk = '';
      for (const l of lines) {
        if (seen.has(l.seq)) continue;
        seen.add(l.seq);
        // The status stream's own lines (ALL VIRTUAL USERS COMPLETE) are the CLI's, not a VU's: not logged.
        const status = l.vu === 0 ? /^Vuser (\d+):/.exec(l.text) : null;
        if (l.vu === 0 && !status) continue;
        const vu = status ? Number(status[1]) : l.vu;
        if (stamps) chunk += `Timestamp ${vu} @ ${tclClock(new Date(l.ts))}\n`;
        chunk += `${status ? l.text : `Vuser ${vu}:${l.text}`}\n`;
      }
      if (chunk) write(chunk);
      const ended = (f.t === 'status' && isTerminal(f.status)) || (f.t === 'snapshot' && isTerminal(f.snapshot.job.status));
      if (ended) setImmediate(() => stream.unsubscribe(sub));
      return true;
    },
    backlog: () => 0,
  };
  stream.subscribe(sub);
}
