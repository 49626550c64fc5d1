import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inTransaction, type Db } from './db.js';

/** One forward-only schema step: src/migrations/NNNN_name.sql. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** src/migrations, found from src/ (tests) and from dist/ (built code) alike. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../src/migrations/', import.meta.url));

const FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/** Read the migration files in version order; versions must run 1, 2, 3 ... without gaps. */
export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const out: Migration[] = [];
  for (const f of readdirSync(dir).sort()) {
    const m = FILE.exec(f);
    if (!m) continue;
    out.push({ version: Number(m[1]), name: m[2] ?? f, sql: readFileSync(`${dir}/${f}`, 'utf8') });
  }
  out.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`job store migrations in ${dir} must be numbered 0001, 0002, ... without gaps; found ${String(m.version).padStart(4, '0')}_${m.name}.sql at position ${i + 1}`);
  });
  if (out.length === 0) throw new Error(`no job store migrations found in ${dir}`);
  return out;
}

/** The highest applied schema version (0 for a new file). */
export function schemaVersion(db: Db): number {
  const row = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

const tooNew = (current: number, latest: number): Error =>
  new Error(`the job store schema is version ${current} but this Sledge knows versions up to ${latest}: upgrade Sledge (migrations only go forward)`);

/**
 * Apply every migration newer than the file's schema version, each in its own
 * IMMEDIATE transaction together with its schema_migrations row. A file whose
 * version is newer than this code knows is refused: migrations only go forward.
 */
export function migrate(db: Db, migrations: Migration[] = loadMigrations()): number[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT',
  );
  const latest = migrations.length;
  const applied: number[] = [];
  for (const m of migrations) {
    inTransaction(db, () => {
      // Re-read under the write lock: another process may have migrated meanwhile.
      const current = schemaVersion(db);
      if (current > latest) {
        throw tooNew(current, latest);
      }
      if (m.version <= current) return;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
      applied.push(m.version);
    });
  }
  const current = schemaVersion(db);
  if (current > latest) {
    throw tooNew(current, latest);
  }
  return applied;
}
