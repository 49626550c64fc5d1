import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { REDACTED } from '@sledge/protocol';
import { keyName } from './dicts.js';
import { failure, success, type Outcome, type Pairs } from './reply.js';
import { isPasswordVar, scriptVars } from './script-vars.js';
import type { Ctx } from './settings.js';
import type { HdbSession } from './state.js';

/**
 * savescript and custommonitor. savescript writes, as HammerDB does, a bare
 * file name with a .tcl extension into the temp directory, never elsewhere:
 * the custom script as loaded (passwords as ********), or for loadscript's
 * script an `#EDITABLE OPTIONS` block of the session's settings that
 * customscript reads back (passwords as ********: loading it keeps the
 * current ones).
 */

const BARE = /^[A-Za-z0-9._-]{1,200}$/;

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
    lines.push(`set systemconnect ${c['system_user']}/${REDACTED}@${c['instance']} ;# Oracle connect string for system user`, `set connect ${user}/${REDACTED}@${c['instance']} ;# Oracle connect string for the ${workload} user`);
  }
  const seen = new Set<string>();
  for (const [name, t] of Object.entries(scriptVars(s.prefix, workload))) {
    const key = keyName(s.prefix, t.suffix);
    const value = dict[t.section]?.[key];
    if (value === undefined || seen.has(key) || (!timed && (name === 'rampup' || name === 'duration'))) continue;
    seen.add(key);
    lines.push(`set ${name} "${isPasswordVar(name) ? REDACTED : value}" ;# ${t.section}:${key}`);
  }
  lines.push('#EDITABLE OPTIONS##################################################', '');
  return lines.join('\n');
}

/** POST /savescript {"file":"<name>"} */
export function savescript({ s }: Ctx, pairs: Pairs): Outcome {
  if (pairs.length !== 1) return failure('Usage: savescript {"file":"<file name>"}');
  if (!s.script) return failure('Error: No script loaded to save, use loadscript to load');
  const name = pairs[0]![1].trim();
  if (!BARE.test(name) || name !== basename(name) || name.startsWith('.')) {
    return failure(`savescript writes a bare file name (letters, digits, . _ -) into ${tmpdir()}: "${name.slice(0, 100)}" is not one`);
  }
  const ext = extname(name);
  const file = join(tmpdir(), ext === '.tcl' ? name : `${ext ? name.slice(0, -ext.length) : name}.tcl`);
  try {
    writeFileSync(file, s.script.custom ? s.script.custom.text : generatedScript(s), { mode: 0o600 });
  } catch (e) {
    return failure(`Error: Failed to write to ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return success(`Success ... wrote script to ${file}`);
}

/** POST /custommonitor {"type":"test|timed"}: whether a custom script runs with a monitor VU. */
export function custommonitor({ s }: Ctx, pairs: Pairs): Outcome {
  const type = (new Map(pairs).get('type') ?? pairs[0]?.[1] ?? '').trim();
  if (pairs.length !== 1 || (type !== 'test' && type !== 'timed')) return failure('Usage: custommonitor test|timed');
  s.customMonitor = type === 'timed';
  return success(type === 'timed' ? 'Monitor Virtual User enabled for customscript' : 'Monitor Virtual User disabled for custom script');
}
