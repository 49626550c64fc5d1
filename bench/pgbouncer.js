/**
 * A PgBouncer of our own for tests and `pnpm bench async`: started from
 * Debian's binary (/usr/sbin/pgbouncer) with a temporary configuration on a
 * port of its own, in front of the local PostgreSQL (127.0.0.1:5432, trust),
 * and stopped after. Never touches a system service.
 *
 * pool_mode=transaction: each transaction may run on another server session,
 * so Sledge's PostgreSQL target needs `prepared: false` (PgBouncer before 1.21
 * keeps no named prepared statements in transaction pooling).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';

export const PGBOUNCER_BIN = process.env.SLEDGE_PGBOUNCER ?? '/usr/sbin/pgbouncer';

/** Why PgBouncer cannot be used here, or null when it can. */
export function pgbouncerMissing() {
  return existsSync(PGBOUNCER_BIN) ? null : `${PGBOUNCER_BIN} is not installed (apt-get install pgbouncer)`;
}

const portOpen = (port) =>
  new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

/**
 * Start PgBouncer on 127.0.0.1:`port`. `users` are the login names it lets
 * through (auth_type trust; PostgreSQL's own rules apply behind it).
 * Returns { port, stop(), clients(database) } where clients() counts the
 * client connections of a database (SHOW CLIENTS on the admin console).
 */
export async function startPgBouncer({ port = 6433, users = ['postgres'], poolSize = 20, maxClients = 12000, poolMode = 'transaction' } = {}) {
  const missing = pgbouncerMissing();
  if (missing) throw new Error(missing);
  if (await portOpen(port)) throw new Error(`port ${port} is in use: PgBouncer for the tests needs it free`);
  const dir = mkdtempSync(join(tmpdir(), 'sledge-pgbouncer-'));
  chmodSync(dir, 0o755);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  writeFileSync(join(dir, 'users.txt'), users.map((u) => `"${u}" ""`).join('\n') + '\n', { mode: 0o644 });
  const ini = [
    '[databases]',
    '* = host=127.0.0.1 port=5432',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    "unix_socket_dir = ''",
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'admin_users = postgres',
    `pool_mode = ${poolMode}`,
    `max_client_conn = ${maxClients}`,
    `default_pool_size = ${poolSize}`,
    'max_db_connections = 0',
    'ignore_startup_parameters = extra_float_digits,options',
    'log_connections = 0',
    'log_disconnections = 0',
    // PgBouncer refuses to run as root: it drops to the postgres user given here.
    ...(root ? ['user = postgres'] : []),
  ].join('\n');
  writeFileSync(join(dir, 'pgbouncer.ini'), ini + '\n', { mode: 0o644 });
  const p = spawn(PGBOUNCER_BIN, [join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  // PgBouncer logs to stderr (a logfile would have to be writable by the user it drops to): keep the tail.
  p.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
  const exited = new Promise((r) => p.once('exit', r));
  for (let i = 0; i < 50 && !(await portOpen(port)); i++) {
    if (p.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!(await portOpen(port))) {
    p.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PgBouncer did not start on port ${port}: ${err}`.trim());
  }
  const admin = (sql) => execFileSync('psql', ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'pgbouncer', '-Atc', sql], { maxBuffer: 256 * 1024 * 1024 }).toString();
  return {
    port,
    pid: p.pid,
    /** The last lines PgBouncer logged. */
    log: () => err,
    admin,
    /** Client connections PgBouncer holds for `database` (SHOW CLIENTS). */
    clients(database) {
      // SHOW CLIENTS: type|user|database|state|...
      return admin('SHOW CLIENTS')
        .split('\n')
        .filter((l) => l.split('|')[2] === database).length;
    },
    async stop() {
      if (p.exitCode === null) {
        p.kill('SIGINT');
        const t = setTimeout(() => p.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
