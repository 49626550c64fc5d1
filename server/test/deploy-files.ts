/**
 * Readers for the deployment files (deploy/, the root Dockerfile) and for
 * the environment names the code reads, for deploy-manifests.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Obj = Record<string, unknown>;

/** Files under dir (recursively), absolute paths, sorted. */
export function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out.sort();
}

export interface YamlFile {
  /** Path relative to the repository root. */
  path: string;
  docs: Obj[];
  errors: string[];
}

/** Every *.yaml / *.yml file under deploy/, each document as plain data (aliases resolved). */
export function deployYaml(): YamlFile[] {
  return walk(join(ROOT, 'deploy'))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => {
      const text = readFileSync(f, 'utf8');
      const parsed = parseAllDocuments(text);
      const list = Array.isArray(parsed) ? parsed : [parsed];
      const errors = list.flatMap((d) => d.errors.map((e) => e.message));
      const docs = list.map((d) => d.toJS() as unknown).filter((d): d is Obj => d !== null && typeof d === 'object');
      return { path: relative(ROOT, f), docs, errors };
    });
}

export function yamlDocs(path: string): Obj[] {
  const f = deployYaml().find((y) => y.path === path);
  if (!f) throw new Error(`${path} is missing`);
  return f.docs;
}

export interface Instruction {
  op: string;
  args: string;
  line: number;
}

export interface Stage {
  base: string;
  name: string | undefined;
  instructions: Instruction[];
}

/**
 * A Dockerfile as stages of instructions: comments and blank lines dropped,
 * backslash continuations joined, the keyword upper-cased. ARGs before the
 * first FROM are left out (none are used).
 */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) {
      i++;
      const next = lines[i]!.trim();
      line = line.slice(0, -1).trimEnd() + (next.startsWith('#') ? '' : ` ${next}`);
    }
    const m = /^(\S+)\s*(.*)$/.exec(line)!;
    const op = m[1]!.toUpperCase();
    const args = m[2]!.trim();
    if (op === 'FROM') {
      const f = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!f) throw new Error(`Dockerfile line ${start + 1}: cannot read FROM ${args}`);
      stages.push({ base: f[1]!, name: f[2], instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1]!.instructions.push({ op, args, line: start + 1 });
    }
  }
  return stages;
}

/** The instructions of a stage with this keyword. */
export const ops = (s: Stage, op: string) => s.instructions.filter((i) => i.op === op);

/** The last instruction of a stage with this keyword (the one in effect for USER, CMD, WORKDIR). */
export function lastOp(s: Stage, op: string): Instruction | undefined {
  const all = ops(s, op);
  return all[all.length - 1];
}

/** ENV (and ARG defaults) of a stage as a map: `K=V K2=V2` and the old `K V` form. */
export function envOf(s: Stage, op: 'ENV' | 'ARG' = 'ENV'): Map<string, string> {
  const env = new Map<string, string>();
  for (const i of ops(s, op)) {
    if (op === 'ENV' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(i.args)) {
      const [k, ...v] = i.args.split(/\s+/);
      env.set(k!, v.join(' '));
      continue;
    }
    for (const m of i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)(?:=("[^"]*"|\S*))?/g)) {
      env.set(m[1]!, (m[2] ?? '').replace(/^"(.*)"$/, '$1'));
    }
  }
  return env;
}

/** An exec-form (JSON array) CMD/ENTRYPOINT as its argv. */
export function execForm(i: Instruction): string[] {
  const v = JSON.parse(i.args) as unknown;
  if (!Array.isArray(v) || !v.every((a) => typeof a === 'string')) throw new Error(`line ${i.line}: ${i.op} is not an exec-form array`);
  return v;
}

/**
 * Environment names the code reads: every SLEDGE_* name (error codes
 * SLEDGE_E_* aside) and every process.env name in server/src/main.ts (the
 * server's one reader of the environment) and apps/cli/src (the CLI and
 * `sledge replica`).
 */
export function envNamesInCode(): Set<string> {
  const files = [join(ROOT, 'server/src/main.ts'), ...walk(join(ROOT, 'apps/cli/src')).filter((f) => f.endsWith('.ts'))];
  const names = new Set<string>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/\bSLEDGE_[A-Z0-9_]+/g)) if (!m[0].startsWith('SLEDGE_E_')) names.add(m[0]);
    for (const m of text.matchAll(/process\.env(?:\[\s*['"]([A-Za-z0-9_]+)['"]\s*\]|\.([A-Za-z0-9_]+))/g)) names.add((m[1] ?? m[2])!);
  }
  return names;
}
