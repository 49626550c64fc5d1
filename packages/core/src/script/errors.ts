import { SledgeError } from '@sledge/protocol';

/** Where a script error is: the script's name and a 1-based line and column. */
export interface ScriptPos {
  line: number;
  column: number;
}

/**
 * A pgbench script that does not parse (or uses what Sledge refuses):
 * SLEDGE_E_VALIDATION naming the script, line and column; `field` is the
 * input field that holds the script (e.g. `script.scripts[1].text`).
 */
export class ScriptSyntaxError extends SledgeError {
  readonly script: string;
  readonly line: number;
  readonly column: number;

  constructor(script: string, pos: ScriptPos, message: string, field?: string) {
    super('SLEDGE_E_VALIDATION', `${script}:${pos.line}:${pos.column}: ${message}`, field === undefined ? {} : { field });
    this.script = script;
    this.line = pos.line;
    this.column = pos.column;
  }
}

/**
 * A script that fails while it runs (division by zero, an undefined
 * variable, \gset on a query that returned no row): pgbench aborts the
 * client; Sledge counts it as an error of that script's operation.
 */
export class ScriptRuntimeError extends SledgeError {
  constructor(script: string, line: number, message: string) {
    super('SLEDGE_E_VALIDATION', `${script}:${line}: ${message}`);
  }
}
