import { REDACTED } from '@sledge/protocol';
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

/** One `set name value ;# comment` line: [name, value], or null when the line is not one. */
export function parseSetLine(line: string): [string, string] | null {
  const m = /^\s*set\s+([A-Za-z_][A-Za-z0-9_]*)\s+(.*)$/.exec(line);
  if (!m) return null;
  const rest = m[2]!;
  let value: string;
  let after: string;
  if (rest.startsWith('"')) {
    const end = rest.indexOf('"', 1);
    if (end < 0) return null;
    value = rest.slice(1, end);
    after = rest.slice(end + 1);
  } else if (rest.startsWith('{')) {
    const end = rest.indexOf('}', 1);
    if (end < 0) return null;
    value = rest.slice(1, end);
    after = rest.slice(end + 1);
  } else {
    const v = /^[^\s;]+/.exec(rest);
    if (!v) return null;
    value = v[0];
    after = rest.slice(value.length);
  }
  // What follows the value is nothing, or a comment (";#", "; #").
  if (!/^\s*(;\s*(#.*)?)?$/.test(after)) return null;
  return [m[1]!, value];
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

/** The script's text with every password value replaced by ********. */
export function maskScript(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const set = parseSetLine(line);
      if (!set || !isPasswordVar(set[0])) return line;
      const [name, value] = set;
      const masked = name.toLowerCase().endsWith('connect') ? value.replace(/\/[^@]*@/, `/${REDACTED}@`) : REDACTED;
      return line.replace(value, masked);
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
