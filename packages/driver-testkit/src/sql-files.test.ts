import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseNamedSql, splitSqlScript } from '@sledge/core';
import { ENGINES, type EngineId } from '@sledge/protocol';
import { sqlEngines, sqlFiles } from '@sledge/sql';

/**
 * Issue 3 §5: every engine has the same file set under packages/sql/<engine>/tprocc/.
 * The set, and the extras each engine may add, are documented in packages/sql/README.md.
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

/** The SQL package's README, which documents the file set and lists the extras. */
const README = createRequire(import.meta.url).resolve('@sledge/sql/README.md');

interface ExtraRule {
  engine: string;
  pattern: RegExp;
  file: string;
}

/** Rows of the "Extra files" table of packages/sql/README.md: | engine | file | reason |. */
function extraRules(): ExtraRule[] {
  const text = readFileSync(README, 'utf8');
  const section = /^## Extra files\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text);
  if (!section) throw new Error('packages/sql/README.md has no "## Extra files" section');
  const rules: ExtraRule[] = [];
  for (const line of section[1]!.split('\n')) {
    const cells = line.trim().startsWith('|') ? line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim()) : [];
    if (cells.length !== 3 || cells[0] === 'engine' || /^-+$/.test(cells[0]!)) continue;
    const [engine, file, reason] = cells as [string, string, string];
    if (!reason) throw new Error(`packages/sql/README.md: extra file ${engine} ${file} has no reason`);
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

describe('packages/sql/<engine>/tprocc file set', () => {
  const rules = extraRules();

  /** File name -> path for an engine: its own folder first, then its fallbacks (the resolver's rules). */
  function resolved(engine: EngineId): Map<string, string> {
    return new Map(sqlFiles(engine, 'tprocc').map((f) => [f.name, f.path]));
  }

  it("falls back only from MariaDB to MySQL (the resolver's table)", () => {
    expect(sqlEngines('mariadb')).toEqual(['mariadb', 'mysql']);
    for (const engine of ENGINES) if (engine !== 'mariadb') expect(sqlEngines(engine), engine).toEqual([engine]);
  });

  it('packages/sql/README.md lists extras with a reason, each naming an engine and a file that exists', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) {
      if (r.engine === '*') continue;
      expect(ENGINES as readonly string[], `packages/sql/README.md engine ${r.engine}`).toContain(r.engine);
      const own = sqlFiles(r.engine as EngineId, 'tprocc').filter((f) => f.from === r.engine).map((f) => f.name);
      if (!r.file.includes('*')) expect(own, `packages/sql/${r.engine}/tprocc/${r.file}`).toContain(r.file);
    }
  });

  for (const engine of ENGINES) {
    describe(engine, () => {
      it('has the required file set', () => {
        const files = resolved(engine);
        for (const f of REQUIRED) expect(files.has(f), `${engine}: ${f}`).toBe(true);
      });

      it('has no extra file that packages/sql/README.md does not list', () => {
        const allowed = new Set<string>(['*', ...sqlEngines(engine)]);
        for (const f of resolved(engine).keys()) {
          if ((REQUIRED as readonly string[]).includes(f)) continue;
          const listed = rules.some((r) => allowed.has(r.engine) && r.pattern.test(f));
          expect(listed, `${engine}: ${f} is not listed in packages/sql/README.md`).toBe(true);
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
