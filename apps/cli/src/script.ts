import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { SledgeError } from '@sledge/protocol';

/** The script workload's own flags: pgbench's -f FILE[@W] and -b NAME[@W], repeatable. */
export const SCRIPT_FLAGS = {
  script: { type: 'string', short: 'f', multiple: true },
  builtin: { type: 'string', short: 'b', multiple: true },
} as const;

export interface ScriptFlags {
  script?: string[];
  builtin?: string[];
}

/** `name@weight` -> [name, weight] (pgbench's syntax; weight 1 when absent). */
function splitWeight(spec: string, flag: string): [string, number | undefined] {
  const at = spec.lastIndexOf('@');
  if (at < 0) return [spec, undefined];
  const w = spec.slice(at + 1);
  if (!/^\d+$/.test(w)) throw new SledgeError('SLEDGE_E_VALIDATION', `--${flag} ${spec}: the weight after @ must be a whole number`, { field: `--${flag}` });
  return [spec.slice(0, at), Number(w)];
}

/** The `script.scripts` list of a body: each -f file read (its name is the file's base name), each --builtin by name; the server checks the rest. */
export function scriptEntries(f: ScriptFlags): Record<string, unknown>[] | undefined {
  const out: Record<string, unknown>[] = [];
  for (const spec of f.script ?? []) {
    const [path, weight] = splitWeight(spec, 'script');
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `-f ${path}: cannot read the script: ${(e as Error).message}`, { field: '--script', cause: e });
    }
    out.push({ name: basename(path), text, ...(weight !== undefined ? { weight } : {}) });
  }
  for (const spec of f.builtin ?? []) {
    const [builtin, weight] = splitWeight(spec, 'builtin');
    out.push({ builtin, ...(weight !== undefined ? { weight } : {}) });
  }
  return out.length ? out : undefined;
}
