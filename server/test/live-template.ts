import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeApp, runJob } from './helpers.js';

/**
 * Prebuilt 1-warehouse TPROC-C schemas for live tests whose subject is not
 * the build (docs/testing.md, "Prebuilt schemas").
 *
 * The first test of a run that asks builds one PostgreSQL database through a
 * real Sledge build job, as the role `sledge_tpl_<key>`, then makes it a
 * template nobody can connect to (IS_TEMPLATE, ALLOW_CONNECTIONS false, owned
 * by the superuser). Every test then gets its own copy with `CREATE DATABASE
 * .. TEMPLATE` and `REASSIGN OWNED` of the copy's objects to its own role,
 * which is what its own build would have left: the role (LOGIN, its password),
 * the database it owns and every table, index and routine in it.
 *
 * - Keyed: the name holds a hash of the PostgreSQL TPROC-C SQL files and of
 *   the built code that generates and loads the data (packages/core,
 *   packages/driver-postgresql, server dist), so a template from other code
 *   is never used.
 * - Built once: builders serialise on a machine-wide flock(1) file lock; the
 *   database is built under a `_building` name and renamed when complete, so
 *   a template that exists is whole.
 * - Not left forever: a template is reused by key; templates of other keys
 *   not copied for 2 hours are dropped by the next build.
 */

const HOST = '127.0.0.1';
const PORT = 5432;
const PREFIX = 'sledge_tpl_tprocc_1w_';
const STALE_MS = 2 * 3600_000;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** psql as the superuser (-At output, trimmed). */
function psql(sql: string, database = 'postgres'): string {
  const r = spawnSync('psql', ['-X', '-At', '-v', 'ON_ERROR_STOP=1', '-h', HOST, '-p', String(PORT), '-U', 'postgres', '-d', database, '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql (${database}): ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

function hashTree(h: ReturnType<typeof createHash>, dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    throw new Error(`live-template: ${dir} is missing: build the packages first (npx turbo run build)`);
  }
  for (const n of names) {
    if (n === 'node_modules') continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) hashTree(h, p);
    else if (/\.(js|sql|json)$/.test(n)) {
      h.update(p.slice(ROOT.length));
      h.update(readFileSync(p));
    }
  }
}

const keys = new Map<string, string>();
/** What an engine's template holds depends on: its SQL and the code that builds and loads the schema. */
export function templateKey(engine: 'postgresql' | 'mariadb'): string {
  const known = keys.get(engine);
  if (known) return known;
  const h = createHash('sha256');
  const own = engine === 'postgresql' ? ['packages/sql/postgresql/tprocc', 'packages/driver-postgresql/dist'] : ['packages/sql/mysql/tprocc', 'packages/sql/mariadb/tprocc', 'packages/driver-mysql/dist'];
  for (const d of [...own, 'packages/core/dist', 'server/dist']) hashTree(h, join(ROOT, d));
  const key = h.digest('hex').slice(0, 12);
  keys.set(engine, key);
  return key;
}

/** Hold an exclusive flock(1) on `path` until release() (the lock dies with its holder). */
function lock(path: string): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', ['-x', path, 'sh', '-c', 'echo held; exec cat >/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.once('error', (e) => reject(new Error(`live-template: cannot run flock(1): ${e.message}`)));
    child.once('exit', (code) => reject(new Error(`live-template: flock ${path} exited with ${code}`)));
    child.stdout.once('data', () => {
      child.removeAllListeners('exit');
      resolve(
        () =>
          new Promise<void>((res) => {
            if (child.exitCode !== null) return res();
            child.once('exit', () => res());
            child.stdin.end();
          }),
      );
    });
  });
}

const exists = (db: string) => psql(`SELECT count(*) FROM pg_database WHERE datname = ${literal(db)}`) === '1';

/** Drop a database and, when given, a role, whoever is connected. */
function dropDb(db: string, role?: string): void {
  psql(`DROP DATABASE IF EXISTS ${ident(db)} WITH (FORCE)`);
  if (role) psql(`DROP ROLE IF EXISTS ${ident(role)}`);
}

/** Templates of other keys not copied for STALE_MS (their comment holds the last copy's time). */
function pruneStale(keep: string): void {
  const rows = psql(`SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '') FROM pg_database WHERE datname LIKE '${PREFIX}%'`);
  for (const row of rows ? rows.split('\n') : []) {
    const [name, comment] = row.split('|') as [string, string];
    if (name === keep) continue;
    const used = Number(/used (\d+)/.exec(comment)?.[1] ?? 0);
    if (Date.now() - used < STALE_MS) continue;
    const key = name.slice(PREFIX.length).replace(/_building$/, '');
    psql(`ALTER DATABASE ${ident(name)} WITH IS_TEMPLATE false`);
    dropDb(name, `sledge_tpl_${key}`);
  }
}

/** Build the template through a Sledge build job (the caller holds the lock). */
async function buildTemplate(tpl: string, role: string): Promise<void> {
  const building = `${tpl}_building`;
  dropDb(building, role);
  const s = await makeApp();
  try {
    const target = { engine: 'postgresql', host: HOST, port: PORT, user: role, password: 'sledge-tpl', database: building, superuser: 'postgres', superuserPassword: 'postgres', sslmode: 'disable' };
    const b = await runJob(s, { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 } }, 600_000);
    if (b.status !== 'completed') throw new Error(`live-template: the template build ended ${b.status}: ${JSON.stringify(b.error)}`);
  } finally {
    await s.app.close();
  }
  psql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${literal(building)}`);
  // Nobody connects to a template (CREATE DATABASE .. TEMPLATE fails while anyone is), and it belongs to the superuser.
  psql(`ALTER DATABASE ${ident(building)} OWNER TO postgres`);
  psql(`ALTER DATABASE ${ident(building)} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`);
  psql(`ALTER DATABASE ${ident(building)} RENAME TO ${ident(tpl)}`);
  markUsed(tpl);
}

let ready: Promise<{ tpl: string; role: string }> | null = null;

/** The current key's template, built if missing (once on the machine: others wait on the lock). */
export function pgTemplate(): Promise<{ tpl: string; role: string }> {
  ready ??= (async () => {
    const key = templateKey('postgresql');
    const tpl = `${PREFIX}${key}`;
    const role = `sledge_tpl_${key}`;
    if (exists(tpl)) return { tpl, role };
    const release = await lock(join(tmpdir(), 'sledge-pg-template.lock'));
    try {
      if (!exists(tpl)) {
        pruneStale(tpl);
        await buildTemplate(tpl, role);
      }
    } finally {
      await release();
    }
    return { tpl, role };
  })();
  ready.catch(() => (ready = null));
  return ready;
}

/**
 * Give `database` a fresh 1-warehouse TPROC-C schema (built with the default
 * options: 1 build VU), owned by `user` with
 * `password`, as a Sledge build job would leave it. Replaces whatever
 * database of that name there was; an existing role keeps its password, as a
 * build keeps it.
 */
export async function copyPgTprocc(c: { database: string; user: string; password: string }): Promise<void> {
  const { tpl, role } = await pgTemplate();
  dropDb(c.database);
  psql(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${literal(c.user)}) THEN CREATE ROLE ${ident(c.user)} LOGIN PASSWORD ${literal(c.password)}; END IF; END $$`);
  psql(`CREATE DATABASE ${ident(c.database)} TEMPLATE ${ident(tpl)} OWNER ${ident(c.user)}`);
  psql(`REASSIGN OWNED BY ${ident(role)} TO ${ident(c.user)}`, c.database);
  markUsed(tpl);
}

/** Note the time of use on the template (what pruneStale reads); two at once may clash, and either time will do. */
function markUsed(tpl: string): void {
  try {
    psql(`COMMENT ON DATABASE ${ident(tpl)} IS ${literal(`sledge test template: used ${Date.now()}`)}`);
  } catch {
    // "tuple concurrently updated": another copy noted its time.
  }
}

/** The mariadb client as root on 127.0.0.1:3306 (tab-separated, no column names), `sql` on stdin. */
function mariadb(sql: string): string {
  const r = spawnSync('mariadb', ['-h', HOST, '-P', '3306', '-u', 'root', '-N', '-B'], { input: sql, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`mariadb: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

const bq = (s: string) => `\`${s.replace(/`/g, '``')}\``;
const MARK = 'sledge test template: used ';

/** MariaDB templates (database name => schema comment) whose build completed (the comment is set last). */
function myTemplates(): Map<string, string> {
  const rows = mariadb(`SELECT schema_name, schema_comment FROM information_schema.schemata WHERE schema_name LIKE '${PREFIX}%'`);
  return new Map(rows ? rows.split('\n').map((r) => r.split('\t') as [string, string]) : []);
}

let myReady: Promise<string> | null = null;

/** The current key's MariaDB template, built if missing (once on the machine: others wait on the lock). */
export function mariadbTemplate(): Promise<string> {
  myReady ??= (async () => {
    const tpl = `${PREFIX}${templateKey('mariadb')}`;
    if (myTemplates().get(tpl)?.startsWith(MARK)) return tpl;
    const release = await lock(join(tmpdir(), 'sledge-mariadb-template.lock'));
    try {
      const all = myTemplates();
      if (!all.get(tpl)?.startsWith(MARK)) {
        for (const [name, comment] of all) {
          if (name !== tpl && Date.now() - Number(/used (\d+)/.exec(comment)?.[1] ?? 0) >= STALE_MS) mariadb(`DROP DATABASE IF EXISTS ${bq(name)}`);
        }
        mariadb(`DROP DATABASE IF EXISTS ${bq(tpl)}`);
        const s = await makeApp();
        try {
          const target = { engine: 'mariadb', host: HOST, port: 3306, user: 'root', password: '', database: tpl };
          const b = await runJob(s, { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 } }, 600_000);
          if (b.status !== 'completed') throw new Error(`live-template: the MariaDB template build ended ${b.status}: ${JSON.stringify(b.error)}`);
        } finally {
          await s.app.close();
        }
        markMyUsed(tpl);
      }
    } finally {
      await release();
    }
    return tpl;
  })();
  myReady.catch(() => (myReady = null));
  return myReady;
}

function markMyUsed(tpl: string): void {
  mariadb(`ALTER DATABASE ${bq(tpl)} COMMENT '${MARK}${Date.now()}'`);
}

/**
 * Give the MariaDB database `database` a fresh 1-warehouse TPROC-C schema
 * (default build options: stored procedures, no partitioning), as a Sledge
 * build job as root would leave it: the database (latin1, latin1_bin), each
 * table with its indexes and rows, and the stored procedures. Replaces
 * whatever database of that name there was.
 */
export async function copyMariadbTprocc(database: string): Promise<void> {
  const tpl = await mariadbTemplate();
  const tables = mariadb(`SELECT table_name FROM information_schema.tables WHERE table_schema = '${tpl}' AND table_type = 'BASE TABLE' ORDER BY table_name`).split('\n');
  const routines = spawnSync('mariadb-dump', ['-h', HOST, '-P', '3306', '-u', 'root', '--no-data', '--no-create-info', '--no-create-db', '--skip-triggers', '--routines', '--skip-comments', tpl], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (routines.status !== 0) throw new Error(`mariadb-dump: ${routines.stderr || routines.error?.message}`);
  const db = bq(database);
  mariadb(
    [
      `DROP DATABASE IF EXISTS ${db};`,
      `CREATE DATABASE ${db} CHARACTER SET latin1 COLLATE latin1_bin;`,
      'SET SESSION foreign_key_checks = 0, unique_checks = 0;',
      ...tables.map((t) => `CREATE TABLE ${db}.${bq(t)} LIKE ${bq(tpl)}.${bq(t)}; INSERT INTO ${db}.${bq(t)} SELECT * FROM ${bq(tpl)}.${bq(t)};`),
      `USE ${db};`,
      // (the dump's first line turns on the client's sandbox mode: not wanted in the middle of this script)
      routines.stdout.replace(/^\/\*M!999999\\- enable the sandbox mode \*\/.*$/m, ''),
    ].join('\n'),
  );
  markMyUsed(tpl);
}
