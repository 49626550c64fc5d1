import { basename, extname, join } from 'node:path';
import { REDACTED } from '@sledge/protocol';
import { tclQuote } from '@sledge/tcl';
import { writePrivateFile } from '../../files/private-file.js';
import { keyName } from './dicts.js';
import type { RunCtx } from './lifecycle.js';
import { failure, success, type Outcome, type Pairs } from './reply.js';
import { isPasswordVar, scriptVars } from './script-vars.js';
import type { Ctx } from './settings.js';
import type { HdbSession } from './state.js';

/**
 * savescript and custommonitor. savescript writes a bare file name with a
 * .tcl extension (HammerDB writes it into the temp directory; Sledge into
 * <data dir>/scripts/, owner-only, never through a link: files/private-file.ts):
 * the custom script as loaded (passwords as ********), or for loadscript's
 * script an `#EDITABLE OPTIONS` block of the session's settings that
 * customscript reads back (passwords as ********: loading it keeps the
 * current ones). Every value in the block is written with tclQuote: tclsh
 * (or Sledge's own Tcl) reads it back as the value, never as code.
 */

const BARE = /^[A-Za-z0-9._-]{1,200}$/;

/** Where savescript writes. */
export const scriptsDir = (dataDir: string): string => join(dataDir, 'scripts');

/** The script loadscript stands for, as a HammerDB-style driver script header Sledge can read back. */
export function generatedScript(s: HdbSession): string {
  const workload = s.bm === 'TPC-H' ? 'tpch' : 'tpcc';
  const dict = s.dict;
  const timed = workload === 'tpch' || dict.tpcc?.[keyName(s.prefix, 'driver')] !== 'test';
  const lines = [
    '#!/usr/local/bin/tclsh8.6',
    `# ${s.db.name} TPROC-${workload === 'tpch' ? 'H' : 'C'} ${timed ? 'timed' : 'test'} driver settings, saved by Sledge: Sledge runs the workload natively,`,
    '# this block is what customscript reads back (passwords are never written: ******** keeps the current ones).',
    '#EDITABLE OPTIONS##################################################',
    `set mode "Local" ;# HammerDB operational mode`,
  ];
  if (s.prefix === 'ora') {
    const c = dict.connection ?? {};
    const user = workload === 'tpch' ? dict.tpch?.['tpch_user'] : dict.tpcc?.['tpcc_user'];
    lines.push(
      `set systemconnect ${tclQuote(`${c['system_user']}/${REDACTED}@${c['instance']}`, 'quoted')} ;# Oracle connect string for system user`,
      `set connect ${tclQuote(`${user}/${REDACTED}@${c['instance']}`, 'quoted')} ;# Oracle connect string for the ${workload} user`,
    );
  }
  const seen = new Set<string>();
  for (const [name, t] of Object.entries(scriptVars(s.prefix, workload))) {
    const key = keyName(s.prefix, t.suffix);
    const value = dict[t.section]?.[key];
    if (value === undefined || seen.has(key) || (!timed && (name === 'rampup' || name === 'duration'))) continue;
    seen.add(key);
    lines.push(`set ${name} ${tclQuote(isPasswordVar(name) ? REDACTED : value, 'quoted')} ;# ${t.section}:${key}`);
  }
  lines.push('#EDITABLE OPTIONS##################################################', '');
  return lines.join('\n');
}

/** POST /savescript {"file":"<name>"} */
export function savescript({ s, engine }: RunCtx, pairs: Pairs): Outcome {
  if (pairs.length !== 1) return failure('Usage: savescript {"file":"<file name>"}');
  if (!s.script) return failure('Error: No script loaded to save, use loadscript to load');
  const dir = scriptsDir(engine.dataDir);
  const name = pairs[0]![1].trim();
  if (!BARE.test(name) || name !== basename(name) || name.startsWith('.')) {
    return failure(`savescript writes a bare file name (letters, digits, . _ -) into ${dir}: "${name.slice(0, 100)}" is not one`);
  }
  const ext = extname(name);
  const file = ext === '.tcl' ? name : `${ext ? name.slice(0, -ext.length) : name}.tcl`;
  let path: string;
  try {
    path = writePrivateFile(dir, file, s.script.custom ? s.script.custom.text : generatedScript(s), 'file');
  } catch (e) {
    return failure(`Error: Failed to write to ${join(dir, file)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return success(`Success ... wrote script to ${path}`);
}

/** POST /custommonitor {"type":"test|timed"}: whether a custom script runs with a monitor VU. */
export function custommonitor({ s }: Ctx, pairs: Pairs): Outcome {
  const type = (new Map(pairs).get('type') ?? pairs[0]?.[1] ?? '').trim();
  if (pairs.length !== 1 || (type !== 'test' && type !== 'timed')) return failure('Usage: custommonitor test|timed');
  s.customMonitor = type === 'timed';
  return success(type === 'timed' ? 'Monitor Virtual User enabled for customscript' : 'Monitor Virtual User disabled for custom script');
}
