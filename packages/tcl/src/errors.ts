/**
 * Tcl's non-ok completion codes as JavaScript exceptions: an error (code 1)
 * carrying where it happened, and return/break/continue (codes 2-4), and exit.
 */
export class TclError extends Error {
  /** Line of the innermost command that failed, in `file` (1-based). */
  line: number | undefined;
  /** Text of that command (for the "while executing" trace). */
  command: string | undefined;
  /** Script file that command came from, when it came from a file. */
  file: string | undefined;
  /** Procedure the command ran in, if any. */
  proc: string | undefined;
  /** Tcl's errorCode. */
  errorCode = 'NONE';

  constructor(message: string) {
    super(message);
    this.name = 'TclError';
  }

  /** tclsh's report of an uncaught error: message, command, file and line. */
  report(): string {
    const lines = [this.message];
    if (this.command !== undefined) {
      const text = this.command.length > 150 ? `${this.command.slice(0, 150)}...` : this.command;
      lines.push('    while executing', `"${text}"`);
    }
    if (this.proc !== undefined) lines.push(`    (procedure "${this.proc}")`);
    if (this.line !== undefined) lines.push(this.file !== undefined ? `    (file "${this.file}" line ${this.line})` : `    (line ${this.line})`);
    return lines.join('\n');
  }
}

export type ControlCode = 'return' | 'break' | 'continue';

/** return, break and continue unwinding to the proc or loop that handles them. */
export class TclControl {
  constructor(
    readonly code: ControlCode,
    readonly value = '',
    /** `return -code X`: the code the procedure's caller sees. */
    readonly returnCode: 'ok' | 'error' | 'break' | 'continue' = 'ok',
  ) {}
}

/** `exit ?code?`: ends the whole script. */
export class TclExit {
  constructor(readonly status: number) {}
}

export const numericCode = (c: ControlCode): number => ({ return: 2, break: 3, continue: 4 })[c];
