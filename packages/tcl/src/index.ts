/**
 * @sledge/tcl: a Tcl-subset interpreter in TypeScript, with no dependencies,
 * written to run HammerDB CLI scripts (hammerdbcli auto script.tcl) unchanged.
 *
 * Why our own: the one Tcl interpreter on npm, tcl-js 2.9.0 (one author,
 * ~1,400 downloads a month, a minimatch 3 dependency), ships only puts, set,
 * list, proc, if, switch, loops and arithmetic: no string, format, clock,
 * after/vwait, file channels, dict or catch/error, and no line numbers in its
 * errors. Its integer arithmetic is JavaScript's (7/2 is 3.5), where Tcl's
 * `expr 7/2` is 3. Other npm hits are syntax highlighters (CodeMirror modes).
 *
 * What it covers: Tcl's parsing rules (comments, `;`, backslash-newline,
 * quotes, braces, `$var`, `${var}`, `$a(b)`, `[cmd]`, backslash escapes,
 * `{*}`), expr with Tcl's integer/double rules (bigint integers), and the
 * commands in ./commands (control, variables, procs, strings, lists, dict,
 * io, clock). Every command may be async, so a command can wait on a server.
 * Errors carry the script file and line (tclsh's "while executing" report).
 */
import { Interp, type InterpOptions } from './interp.js';
import { registerClock } from './commands/clock.js';
import { registerControl } from './commands/control.js';
import { registerDict } from './commands/dict.js';
import { registerIo } from './commands/io.js';
import { registerLists } from './commands/lists.js';
import { registerProcs } from './commands/procs.js';
import { registerStrings } from './commands/strings.js';
import { registerVariables } from './commands/variables.js';

export { Interp, type CallContext, type Command, type InterpOptions } from './interp.js';
export { TclControl, TclError, TclExit } from './errors.js';
export { formatList, parseList, quoteElement } from './lists.js';
export { isComplete, parseScript, type ParsedCommand, type Word, type Part } from './parser.js';
export { tclQuote } from './quote.js';
export { toBool, formatDouble } from './numbers.js';
export { formatString } from './format.js';
export { exprString } from './expr.js';

/** An interpreter with every built-in command. */
export function createInterp(opts: InterpOptions = {}): Interp {
  const interp = new Interp(opts);
  registerControl(interp);
  registerVariables(interp);
  registerProcs(interp);
  registerStrings(interp);
  registerLists(interp);
  registerDict(interp);
  registerIo(interp);
  registerClock(interp);
  return interp;
}
