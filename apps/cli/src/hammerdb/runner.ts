import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { SledgeError } from '@sledge/protocol';
import { createInterp, isComplete, TclError, TclExit, type Interp } from '@sledge/tcl';
import { connect } from '../connect.js';
import { findPython, runPython } from './python.js';
import { putsPrinter, registerVerbs } from './verbs.js';

export const HAMMERDB_USAGE = `usage: sledge hammerdb [auto] <script.tcl | script.py | -> [--py] [--server URL] [--token T] [--local] [--data-dir DIR]

Runs a HammerDB CLI script (hammerdbcli auto script.tcl) unchanged against a Sledge
server's HammerDB command API: dbset, diset, vuset, loadscript, buildschema, vucreate,
vurun, vudestroy, jobs, print ... plus the Tcl around them. "-" (or no script with
stdin not a terminal) reads the script from stdin; with a terminal and no script,
a hammerdb> prompt. Exit code: the script's exit code, 1 when a command fails.

A .py script (or --py: Python from stdin, or a hammerdb>>> prompt) is a HammerDB
Python script (hammerdbcli py auto script.py): it runs in your python3 with every
verb as a function (diset('tpcc','pg_count_ware',4), jobid = vurun(), tclpy.eval(...)).
Exit code: the script's (exit(N)), 1 on an uncaught exception.`;

const FLAGS = {
  server: { type: 'string' },
  token: { type: 'string' },
  local: { type: 'boolean' },
  'data-dir': { type: 'string' },
  py: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What to run: a file, stdin, or an interactive prompt. */
function scriptSource(positionals: string[]): { kind: 'file' | 'stdin' | 'repl'; file?: string } {
  const words = positionals[0] === 'auto' ? positionals.slice(1) : positionals;
  if (words.length > 1) throw new SledgeError('SLEDGE_E_VALIDATION', `sledge hammerdb runs one script (got ${words.length}: ${words.join(' ')})`, { field: 'script' });
  const file = words[0];
  if (file === '-' || (file === undefined && !process.stdin.isTTY)) return { kind: 'stdin' };
  if (file === undefined) return { kind: 'repl' };
  return { kind: 'file', file };
}

function readScript(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `cannot read the script ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, { field: 'script' });
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Run a script: 0 at its end, exit's code, or 1 with tclsh's error report on stderr. */
async function runScript(interp: Interp, text: string, file: string): Promise<number> {
  try {
    await interp.evalFile(text.replace(/^#!.*\n/, '\n'), file);
    return 0;
  } catch (e) {
    if (e instanceof TclExit) return e.status;
    if (e instanceof TclError) {
      process.stderr.write(`${e.report()}\n`);
      return 1;
    }
    throw e;
  }
}

/** The hammerdb> prompt: each complete command runs, its result and errors are printed, the session goes on. */
async function repl(interp: Interp): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: 'hammerdb>' });
  process.stdout.write('Sledge HammerDB CLI: type HammerDB commands, "help" for the verbs, "quit" to leave\n');
  rl.prompt();
  let buffer = '';
  for await (const line of rl) {
    buffer += `${line}\n`;
    if (!isComplete(buffer)) continue;
    const text = buffer;
    buffer = '';
    try {
      const result = await interp.eval(text);
      if (result !== '') process.stdout.write(`${result}\n`);
    } catch (e) {
      if (e instanceof TclExit) {
        rl.close();
        return e.status;
      }
      if (!(e instanceof TclError)) throw e;
      process.stdout.write(`${e.message}\n`);
    }
    rl.prompt();
  }
  return 0;
}

/**
 * A HammerDB Python script: a .py file, or --py (hammerdbcli py). As HammerDB's
 * CLI does, Python mode refuses a file of the other language.
 */
function isPython(source: { kind: string; file?: string }, py: boolean): boolean {
  const file = source.kind === 'file' ? source.file! : undefined;
  if (file === undefined) return py;
  if (py && !file.endsWith('.py')) throw new SledgeError('SLEDGE_E_VALIDATION', `incorrect file extension for python: ${file} (hammerdbcli py auto runs a .py script; a Tcl script runs without py)`, { field: 'script' });
  return py || file.endsWith('.py');
}

export async function runHammerdb(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  if (values.help) {
    process.stdout.write(`${HAMMERDB_USAGE}\n`);
    return 0;
  }
  const source = scriptSource(positionals);
  const python = isPython(source, values.py === true);
  if (python) findPython();
  // A Python script is read by python3 (stdin too), after this check that it is there.
  const text = source.kind === 'file' ? readScript(source.file!) : source.kind === 'stdin' && !python ? await readStdin() : '';
  const { client, close } = await connect(values);
  try {
    // HammerDB's sample scripts write to $::env(TMP): like HammerDB's CLI, give it the temp directory when the shell has none.
    const env = { ...process.env, TMP: process.env['TMP'] ?? tmpdir() };
    const interp = createInterp({ env, stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) });
    registerVerbs(interp, putsPrinter(interp, client));
    if (python) return await runPython(interp, source, env);
    if (source.kind === 'repl') return await repl(interp);
    return await runScript(interp, text, source.kind === 'file' ? source.file! : 'stdin');
  } finally {
    await close();
  }
}
