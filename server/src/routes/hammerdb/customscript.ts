import { REDACTED } from '@sledge/protocol';
import { parseScript, tclQuote, TclError, type ParsedCommand, type Word } from '@sledge/tcl';
import { databaseByPrefix, keyName, type Dict } from './dicts.js';
import { failure, success, type Outcome, type Pairs } from './reply.js';
import { isPasswordVar, SCRIPT_LIBRARY, scriptVars } from './script-vars.js';
import { bindSecret } from './secret-binding.js';
import { checkDictValue, type Ctx } from './settings.js';

/**
 * customscript: HammerDB loads any Tcl driver script. Sledge runs its own
 * driver, so it honours the common case: a driver script HammerDB generated
 * (loadscript + savescript, perhaps edited), whose `#EDITABLE OPTIONS` block
 * of `set name value ;# comment` lines carries the settings. Each variable is
 * set onto the dict key it came from, with diset's checks; anything else is
 * refused, saying what is supported. Passwords are kept in the dict only:
 * the stored text has them as ********, and a ******** value keeps the
 * current password.
 */

const MARK = /^\s*#\s*EDITABLE OPTIONS/i;
export const SUPPORTED = 'customscript takes a HammerDB-generated TPROC-C or TPROC-H driver script (loadscript + savescript, edited or not): Sledge reads its #EDITABLE OPTIONS block of "set name value" lines; other Tcl is not run';

export class ScriptError extends Error {}

/** A word's value when it has no substitution (braced, or literal text and backslash escapes), else undefined. */
function literal(w: Word): string | undefined {
  if (w.expand) return undefined;
  if (w.braced) return w.text;
  return w.parts.every((p) => p.t === 'lit') ? w.parts.map((p) => (p as { s: string }).s).join('') : undefined;
}

/** A `set name value ;# comment` line read as Tcl reads it: the value's text, whether it was in double quotes, and the line's text before the command and after it (the comment). */
function readSetLine(line: string): { name: string; value: string; quoted: boolean; indent: string; tail: string } | null {
  let commands: ParsedCommand[];
  try {
    commands = parseScript(line);
  } catch (e) {
    if (e instanceof TclError) return null;
    throw e;
  }
  if (commands.length !== 1) return null;
  const [cmd] = commands as [ParsedCommand];
  const [set, name, value] = cmd.words.map(literal);
  if (cmd.words.length !== 3 || set !== 'set' || !name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || value === undefined) return null;
  const start = line.indexOf(cmd.text);
  return { name, value, quoted: !cmd.words[2]!.braced && cmd.text.endsWith('"'), indent: line.slice(0, start), tail: line.slice(start + cmd.text.length) };
}

/** One `set name value ;# comment` line: [name, value] (the value as Tcl reads it: braces, quotes and backslashes undone), or null when the line is not one (a substitution, a second command ...). */
export function parseSetLine(line: string): [string, string] | null {
  const set = readSetLine(line);
  return set ? [set.name, set.value] : null;
}

/** The `set` lines of the script's EDITABLE OPTIONS block, in order. */
export function editableOptions(text: string): [string, string][] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => MARK.test(l));
  if (start < 0) throw new ScriptError(`${SUPPORTED}. This script has no #EDITABLE OPTIONS block`);
  const end = lines.findIndex((l, i) => i > start && MARK.test(l));
  if (end < 0) throw new ScriptError(`${SUPPORTED}. The #EDITABLE OPTIONS block is not closed by a second #EDITABLE OPTIONS line`);
  const out: [string, string][] = [];
  for (let i = start + 1; i < end; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const set = parseSetLine(line);
    if (!set) throw new ScriptError(`${SUPPORTED}. Line ${i + 1} of the script (in the block) is not a "set name value" line: ${line.trim().slice(0, 80)}`);
    out.push(set);
  }
  return out;
}

/** Oracle's "user/password@instance". */
function splitConnect(v: string): [string, string, string] {
  const m = /^([^/@]+)\/([^@]*)@(.+)$/.exec(v);
  if (!m) throw new ScriptError(`connect must be user/password@instance`);
  return [m[1]!, m[2]!, m[3]!];
}

/** The dict keys (section, key, value) a script's settings set, for the session's database and benchmark. */
export function settingsToKeys(prefix: string, bm: 'TPC-C' | 'TPC-H', settings: [string, string][]): [keyof Dict, string, string][] {
  const workload = bm === 'TPC-H' ? 'tpch' : 'tpcc';
  const vars = scriptVars(prefix, workload);
  const isH = settings.some(([n]) => /^(total_querysets|scale_factor)$/i.test(n));
  if (isH !== (workload === 'tpch')) throw new ScriptError(`This is a TPROC-${isH ? 'H' : 'C'} driver script: dbset bm TPC-${isH ? 'H' : 'C'} before customscript`);
  const out: [keyof Dict, string, string][] = [];
  for (const [name, value] of settings) {
    const v = name.toLowerCase();
    if (v === 'library') {
      const lib = SCRIPT_LIBRARY[value.toLowerCase()];
      if (!lib) throw new ScriptError(`Unknown library ${value}: the script must load one of ${Object.keys(SCRIPT_LIBRARY).join(', ')}`);
      if (lib !== prefix) throw new ScriptError(`This script is for ${databaseByPrefix(lib)?.name ?? lib} (library ${value}): dbset db ${lib} before customscript`);
      continue;
    }
    if (v === 'mode') {
      if (value.toLowerCase() !== 'local') throw new ScriptError(`mode ${value} is not supported: Sledge runs in Local mode only`);
      continue;
    }
    if (prefix === 'ora' && (v === 'connect' || v === 'systemconnect')) {
      const [user, pass, instance] = splitConnect(value);
      const [u, p] = v === 'systemconnect' ? ['system_user', 'system_password'] : workload === 'tpch' ? ['tpch_user', 'tpch_pass'] : ['tpcc_user', 'tpcc_pass'];
      out.push([v === 'systemconnect' ? 'connection' : workload, u, user], [v === 'systemconnect' ? 'connection' : workload, p, pass], ['connection', 'instance', instance]);
      continue;
    }
    const target = vars[v];
    if (!target) throw new ScriptError(`set ${name} is not a setting Sledge reads from a ${databaseByPrefix(prefix)?.name ?? prefix} TPROC-${workload === 'tpch' ? 'H' : 'C'} script; it reads: library, mode, ${Object.keys(vars).join(', ')}${prefix === 'ora' ? ', connect, systemconnect' : ''}`);
    out.push([target.section, keyName(prefix, target.suffix), value]);
  }
  if (workload === 'tpcc') {
    const timed = settings.some(([n]) => /^(rampup|duration)$/i.test(n));
    out.push(['tpcc', keyName(prefix, 'driver'), timed ? 'timed' : 'test']);
  }
  return out;
}

/** The script's text with every password value replaced by ******** (the line rewritten with tclQuote, its comment kept). */
export function maskScript(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const set = readSetLine(line);
      if (!set || !isPasswordVar(set.name)) return line;
      const masked = set.name.toLowerCase().endsWith('connect') ? set.value.replace(/\/[^@]*@/, `/${REDACTED}@`) : REDACTED;
      return `${set.indent}set ${set.name} ${tclQuote(masked, set.quoted ? 'quoted' : 'bare')}${set.tail}`;
    })
    .join('\n');
}

/** POST /customscript {"script":"<text>"} */
export function customscript({ s }: Ctx, pairs: Pairs): Outcome {
  if (pairs.length !== 1) return failure('Incorrect number of parameters to customscript key value');
  const text = pairs[0]![1];
  let keys: [keyof Dict, string, string][];
  let settings: [string, string][];
  try {
    settings = editableOptions(text);
    keys = settingsToKeys(s.prefix, s.bm, settings);
  } catch (e) {
    if (e instanceof ScriptError) return failure(e.message);
    throw e;
  }
  // Check every value first: a refused one changes nothing.
  const dict = s.dict;
  const changes: [keyof Dict, string, string, boolean][] = [];
  for (const [section, key, raw] of keys) {
    const current = dict[section]?.[key];
    if (current === undefined) return failure(`The script sets ${key}, which the ${s.db.name} ${String(section)} dictionary does not have`);
    const kept = raw.includes(REDACTED);
    const value = kept ? current : raw;
    if (key !== keyName(s.prefix, 'driver')) {
      const refused = checkDictValue(s.prefix, s.db.engine, section, key, value);
      if (refused) return failure(`customscript: ${refused}`);
    }
    changes.push([section, key, value, kept]);
  }
  for (const [section, key, value] of changes) dict[section]![key] = value;
  // A password the script gives goes to the connection the script sets; a kept one (********) stays bound where it was set.
  for (const [section, key, , kept] of changes) if (!kept) bindSecret(s, s.prefix, section, key);
  const driver = s.bm === 'TPC-H' ? 'timed' : dict.tpcc?.[keyName(s.prefix, 'driver')] === 'test' ? 'test' : 'timed';
  s.script = { prefix: s.prefix, driver, custom: { text: maskScript(text), settings: settings.map(([n, v]) => [n, isPasswordVar(n) ? REDACTED : v]) } };
  return success('Set custom script');
}
