/**
 * vitest globalSetup of the sqlite tier (vitest.config.ts): builds the schemas
 * that many files only run on, once per code version, instead of once per
 * file. Today one template: a 1-warehouse TPROC-C schema on SQLite (seed 7).
 *
 * The template lives in <tmp>/sledge-sqlite-templates/<key>/, where <key> is
 * a hash of the code that builds it (server/dist and the packages the build
 * runs: core, protocol, sql, driver-sqlite, worker-native). Any change to
 * that code gives a new key, so a stale template is never reused; the same
 * code finds it built and skips the build. A template is built in a temp
 * directory and renamed into place, so a concurrent run sees it whole or not
 * at all. Tests copy it with `sqliteFromTemplate()` (test/sqlite-template.ts).
 * Files whose subject is the build itself keep building.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/** The TPROC-C template: what its build job asks for. */
export const TPROCC_W1 = { file: 'tprocc-w1-seed7.sqlite', build: { type: 'build', tprocc: { warehouses: 1 }, seed: 7 } } as const;

const SERVER = fileURLToPath(new URL('..', import.meta.url));
/** The code a TPROC-C build on SQLite runs (a change in any of it makes a new template). */
const CODE = ['server/dist', 'packages/core', 'packages/protocol', 'packages/sql', 'packages/driver-sqlite', 'worker-native'];
const SKIP = new Set(['node_modules', '.turbo', 'test', 'coverage', 'bench']);
const STALE_MS = 24 * 3600_000;

function hashTree(root: string, dir: string, h: ReturnType<typeof createHash>): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (SKIP.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) hashTree(root, p, h);
    else if (e.isFile()) h.update(relative(root, p)).update('\0').update(readFileSync(p)).update('\0');
  }
}

/** A hash of the building code and of what is built. */
export function templateKey(): string {
  const root = join(SERVER, '..');
  const h = createHash('sha256').update(JSON.stringify(TPROCC_W1));
  for (const d of CODE) hashTree(root, join(root, d), h);
  return h.digest('hex').slice(0, 16);
}

async function buildTemplate(dest: string): Promise<void> {
  const { buildApp } = (await import(new URL('../dist/app.js', import.meta.url).href)) as typeof import('../dist/app.js');
  const work = mkdtempSync(join(tmpdir(), 'sledge-template-build-'));
  const s = await buildApp({ dataDir: work, logger: false, uiDir: null });
  try {
    const r = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: { ...TPROCC_W1.build, target: { engine: 'sqlite', file: TPROCC_W1.file } } });
    if (r.statusCode !== 201) throw new Error(`template build refused: ${r.statusCode} ${r.body}`);
    const id = (JSON.parse(r.body) as { id: string }).id;
    for (;;) {
      const job = s.store.getJob(id);
      if (job && ['completed', 'failed', 'stopped', 'interrupted'].includes(job.status)) {
        if (job.status !== 'completed') throw new Error(`template build ${job.status}: ${JSON.stringify(job.error)}`);
        break;
      }
      await new Promise((res) => setTimeout(res, 250));
    }
  } finally {
    await s.app.close();
  }
  const built = join(work, TPROCC_W1.file);
  // The build's connections are closed: the schema is all in the main file (a copy of it alone is the whole database).
  for (const side of ['-wal', '-journal']) if (existsSync(built + side) && statSync(built + side).size > 0) throw new Error(`template ${built} left a ${side} file`);
  mkdirSync(dest, { recursive: true });
  renameSync(built, join(dest, TPROCC_W1.file));
  rmSync(work, { recursive: true, force: true });
}

export default async function setup(project: TestProject): Promise<void> {
  const base = join(tmpdir(), 'sledge-sqlite-templates');
  const key = templateKey();
  const dir = join(base, key);
  if (!existsSync(join(dir, TPROCC_W1.file))) {
    const t0 = Date.now();
    await buildTemplate(dir);
    console.log(`[sqlite templates] built ${TPROCC_W1.file} in ${((Date.now() - t0) / 1000).toFixed(1)} s (${dir})`);
  }
  // Templates of other code versions, unused for a day, go.
  for (const other of existsSync(base) ? readdirSync(base) : []) {
    const p = join(base, other);
    if (other !== key && Date.now() - statSync(p).mtimeMs > STALE_MS) rmSync(p, { recursive: true, force: true });
  }
  project.provide('sqliteTemplates', { tproccW1: join(dir, TPROCC_W1.file) });
}

declare module 'vitest' {
  export interface ProvidedContext {
    sqliteTemplates: { tproccW1: string };
  }
}
