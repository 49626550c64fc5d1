import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { SledgeError } from '@sledge/protocol';
import { TclError, TclExit, type Interp } from '@sledge/tcl';

/**
 * HammerDB's Python CLI (`hammerdbcli py auto script.py`): the script runs in
 * the user's own python3 with Sledge's `hammerdb` and `tclpy` modules
 * (apps/cli/python) on PYTHONPATH. Each verb call there is Tcl text for this
 * process's interpreter (one JSON line on fd 3, the answer on fd 4), where the
 * verbs registered for Tcl scripts run it: the same routes, output lines,
 * errors and job ids. Python's own print and the verbs' lines share stdout,
 * and a call waits for its answer, so they come out in the script's order.
 */

/** apps/cli/python: the modules the script imports (from dist/hammerdb or src/hammerdb alike). */
export const PYTHON_DIR = fileURLToPath(new URL('../../python', import.meta.url));
const RUNNER = join(PYTHON_DIR, 'sledge_hammerdb_run.py');

/** The python3 on PATH, or a typed error naming what to install. */
export function findPython(path = process.env['PATH'] ?? ''): string {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'python3');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  throw new SledgeError(
    'SLEDGE_E_VALIDATION',
    'HammerDB Python scripts run with your own Python 3, and there is no python3 on PATH: install it (Debian/Ubuntu: apt-get install python3; RHEL/Fedora: dnf install python3; macOS: brew install python) or put its directory on PATH',
    { field: 'script' },
  );
}

/** What the Tcl side answers for one tclpy.eval: its result, its error, or the script's end. */
type Answer = { result: string } | { error: string } | { exit: number };

async function evalForPython(interp: Interp, text: string): Promise<Answer> {
  try {
    return { result: await interp.evalFile(text, undefined) };
  } catch (e) {
    if (e instanceof TclExit) return { exit: e.status };
    if (e instanceof TclError) return { error: e.message };
    throw e;
  }
}

export interface PythonSource {
  kind: 'file' | 'stdin' | 'repl';
  file?: string;
}

/** Run the script in python3 against `interp`; resolves to its exit code. */
export async function runPython(interp: Interp, source: PythonSource, env: NodeJS.ProcessEnv): Promise<number> {
  const python = findPython(env['PATH']);
  const args = ['-u', RUNNER, ...(source.kind === 'file' ? [source.file!] : source.kind === 'stdin' ? ['-'] : [])];
  const child = spawn(python, args, {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe', 'pipe'],
    env: { ...env, PYTHONPATH: [PYTHON_DIR, env['PYTHONPATH']].filter(Boolean).join(delimiter), SLEDGE_TCLPY_FDS: '3,4', PYTHONIOENCODING: env['PYTHONIOENCODING'] ?? 'utf-8' },
  });
  const closed = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
  });
  closed.catch(() => undefined); // awaited below; a spawn error must not be an unhandled rejection meanwhile
  // Ctrl-C reaches python3 too (same process group): its KeyboardInterrupt ends the script;
  // a waiting verb's own handler (followJob) stops the job.
  const requests = child.stdio[3] as Readable;
  const replies = child.stdio[4] as Writable;
  replies.on('error', () => undefined); // python3 gone mid-answer: its exit code tells
  for await (const line of createInterface({ input: requests, crlfDelay: Infinity })) {
    let text: string;
    try {
      text = String((JSON.parse(line) as { eval?: unknown }).eval ?? '');
    } catch {
      replies.write(`${JSON.stringify({ error: 'tclpy: a request that is not JSON' })}\n`);
      continue;
    }
    const answer = await evalForPython(interp, text);
    // The verb's lines are out before python3 prints its next one (stdout is asynchronous where pipes are, e.g. macOS).
    await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
    if (!replies.destroyed) replies.write(`${JSON.stringify(answer)}\n`);
  }
  return closed;
}
