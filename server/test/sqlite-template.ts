import { copyFileSync, existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { inject } from 'vitest';

/**
 * A 1-warehouse TPROC-C schema on SQLite without building one: a copy of the
 * template the sqlite tier's globalSetup built once for this code version
 * (test/global-sqlite-templates.ts, docs/testing.md). `file` is the target's
 * `file` as a job gives it: relative to the app's data directory (its files
 * root), or absolute. Returns the path written. For tests that run on a
 * schema; a test whose subject is the build keeps building.
 */
export function sqliteFromTemplate(s: { dataDir: string }, file: string): string {
  const template = inject('sqliteTemplates')?.tproccW1;
  if (!template || !existsSync(template)) {
    throw new Error(`no SQLite TPROC-C template (${template ?? 'none provided'}): run this file in the sqlite project (vitest run --project sqlite), whose globalSetup builds it`);
  }
  const dest = isAbsolute(file) ? file : join(s.dataDir, file);
  copyFileSync(template, dest);
  return dest;
}
