import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseNamedSql, splitSqlScript } from '@sledge/core';
import { ENGINES, type EngineId } from '@sledge/protocol';

/**
 * Issue 3 §5: every engine has the same file set under sql/<engine>/tprocc/.
 * The set, and the extras each engine may add, are documented in sql/README.md.
 */
const REQUIRED = ['admin.sql', 'tables.sql', 'indexes.sql', 'procedures.sql', 'drop.sql', 'check.sql', 'counters.sql'] as const;

/** The five transactions and the routine/statement names that stand for each. */
const TRANSACTIONS = {
  'new order': ['neword', 'new_order'],
  payment: ['payment'],
  delivery: ['delivery'],
  'stock level': ['slev', 'stock_level'],
  'order status': ['ostat', 'order_status'],
} as const;

/** The repository root: the first directory above this file holding sql/README.md. */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'sql', 'README.md'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no sql/README.md above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

const root = repoRoot();
const tproccDir = (dialect: string) => join(root, 'sql', dialect, 'tprocc');

interface Flavour {
  engine: string;
  dialect: string;
  dialectFallback: readonly string[];
}

function isFlavour(v: unknown): v is Flavour {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o['engine'] === 'string' &&
    typeof o['dialect'] === 'string' &&
    Array.isArray(o['dialectFallback']) &&
    o['dialectFallback'].every((d) => typeof d === 'string')
  );
}

/**
 * The SQL directories of each engine, in lookup order. The MySQL-family
 * driver declares them as data (MYSQL and MARIADB in its flavour.ts); the
 * testkit cannot depend on the driver package (the driver depends on the
 * testkit), so the declaration is read from its source module. Engines
 * without a declaration read only sql/<engine>/.
 */
async function declaredDialects(): Promise<Map<string, string[]>> {
  const file = join(root, 'packages', 'driver-mysql', 'src', 'flavour.ts');
  const mod: Record<string, unknown> = await import(pathToFileURL(file).href);
  const out = new Map<string, string[]>();
  for (const v of Object.values(mod)) if (isFlavour(v)) out.set(v.engine, [v.dialect, ...v.dialectFallback]);
  return out;
}

interface ExtraRule {
  engine: string;
  pattern: RegExp;
  file: string;
}

/** Rows of the "Extra files" table of sql/README.md: | engine | file | reason |. */
function extraRules(): ExtraRule[] {
  const text = readFileSync(join(root, 'sql', 'README.md'), 'utf8');
  const section = /^## Extra files\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text);
  if (!section) throw new Error('sql/README.md has no "## Extra files" section');
  const rules: ExtraRule[] = [];
  for (const line of section[1]!.split('\n')) {
    const cells = line.trim().startsWith('|') ? line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim()) : [];
    if (cells.length !== 3 || cells[0] === 'engine' || /^-+$/.test(cells[0]!)) continue;
    const [engine, file, reason] = cells as [string, string, string];
    if (!reason) throw new Error(`sql/README.md: extra file ${engine} ${file} has no reason`);
    const glob = file.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
    rules.push({ engine, file, pattern: new RegExp(`^${glob}$`) });
  }
  return rules;
}

/** Names a procedures.sql defines: `-- name:` statements and CREATE PROCEDURE/FUNCTION targets. */
function definedNames(text: string): string[] {
  const names = Object.keys(/^--\s*name:/m.test(text) ? parseNamedSql(text) : {});
  for (const m of text.matchAll(/\bCREATE\s+(?:OR\s+(?:REPLACE|ALTER)\s+)?(?:PROCEDURE|FUNCTION|PROC)\s+((?:[\w$"[\]`]+\.)?[\w$"[\]`]+)/gi)) {
    names.push(m[1]!.split('.').pop()!.replace(/["[\]`]/g, ''));
  }
  return names;
}

/** Statements of one file, parsed the way the drivers read it. */
function statementsOf(text: string): string[] {
  return /^--\s*name:/m.test(text) ? Object.values(parseNamedSql(text)) : splitSqlScript(text);
}

describe('sql/<engine>/tprocc file set', () => {
  let dialects: Map<string, string[]>;
  const rules = extraRules();

  beforeAll(async () => {
    dialects = await declaredDialects();
  });

  /** File name -> path for an engine: its own directory first, then its fallbacks. */
  function resolved(engine: EngineId): Map<string, string> {
    const files = new Map<string, string>();
    for (const d of dialects.get(engine) ?? [engine]) {
      const dir = tproccDir(d);
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir)) if (!files.has(f) && statSync(join(dir, f)).isFile()) files.set(f, join(dir, f));
    }
    return files;
  }

  it('reads the MariaDB fallback from the MySQL driver', () => {
    expect(dialects.get('mariadb')).toEqual(['mariadb', 'mysql']);
    expect(dialects.get('mysql')).toEqual(['mysql']);
  });

  it('sql/README.md lists extras with a reason, each naming an engine and a file that exists', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) {
      if (r.engine === '*') continue;
      expect(ENGINES as readonly string[], `sql/README.md engine ${r.engine}`).toContain(r.engine);
      if (!r.file.includes('*')) expect(existsSync(join(tproccDir(r.engine), r.file)), `sql/${r.engine}/tprocc/${r.file}`).toBe(true);
    }
  });

  for (const engine of ENGINES) {
    describe(engine, () => {
      it('has the required file set', () => {
        const files = resolved(engine);
        for (const f of REQUIRED) expect(files.has(f), `${engine}: ${f}`).toBe(true);
      });

      it('has no extra file that sql/README.md does not list', () => {
        const allowed = new Set(['*', ...(dialects.get(engine) ?? [engine])]);
        for (const f of resolved(engine).keys()) {
          if ((REQUIRED as readonly string[]).includes(f)) continue;
          const listed = rules.some((r) => allowed.has(r.engine) && r.pattern.test(f));
          expect(listed, `${engine}: ${f} is not listed in sql/README.md`).toBe(true);
        }
      });

      it('every .sql file parses into statements', () => {
        for (const [f, path] of resolved(engine)) {
          if (!f.endsWith('.sql')) continue;
          const stmts = statementsOf(readFileSync(path, 'utf8'));
          expect(stmts.length, `${engine}: ${f}`).toBeGreaterThan(0);
          for (const s of stmts) expect(s.trim(), `${engine}: ${f}`).not.toBe('');
        }
      });

      it('procedures.sql defines the five transactions by name', () => {
        const path = resolved(engine).get('procedures.sql')!;
        const names = definedNames(readFileSync(path, 'utf8')).map((n) => n.toLowerCase());
        for (const [tx, aliases] of Object.entries(TRANSACTIONS)) {
          const found = names.some((n) => aliases.some((a) => n === a || n.startsWith(`${a}_`)));
          expect(found, `${engine}: procedures.sql has no ${tx} (${aliases.join(' | ')}) among ${names.join(', ')}`).toBe(true);
        }
      });
    });
  }
});
