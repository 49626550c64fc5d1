import pg from 'pg';

/**
 * The wrong-password fixture of the test suites: one role that must
 * authenticate. A test machine's PostgreSQL usually trusts 127.0.0.1, so any
 * password is accepted; the suites need one role that a wrong password is
 * refused for (SQLSTATE 28P01). `ensurePgAuthRole()` prepares it idempotently
 * through the superuser connection the suites already use: it creates the role
 * with a scram-sha-256 password and, when a wrong password is still accepted,
 * puts one rule for this role alone at the top of pg_hba.conf (written by the
 * server itself, so no root or file access on the client is needed) and
 * reloads. Nothing else in pg_hba.conf changes.
 */
export const AUTH_ROLE = 'sledge_auth_test';
export const AUTH_PASSWORD = 'right-password';

const RULES = [`host all ${AUTH_ROLE} 127.0.0.1/32 scram-sha-256`, `host all ${AUTH_ROLE} ::1/128 scram-sha-256`];

export interface PgSuper {
  host: string;
  port: number;
  superuser: string;
  superuserPassword?: string;
}

/** Connect as AUTH_ROLE with a wrong password: the error code, or null when it was let in. */
async function wrongPasswordRefusal(s: PgSuper): Promise<string | null> {
  const c = new pg.Client({ host: s.host, port: s.port, user: AUTH_ROLE, password: 'wrong-password-for-probe', database: 'postgres', connectionTimeoutMillis: 5000 });
  return c.connect().then(
    async () => {
      await c.end();
      return null;
    },
    (e: unknown) => String((e as { code?: string }).code ?? (e as Error).message),
  );
}

export async function ensurePgAuthRole(s: PgSuper): Promise<void> {
  const c = new pg.Client({ host: s.host, port: s.port, user: s.superuser, password: s.superuserPassword ?? '', database: 'postgres', connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    // Suites in other packages prepare the same role at the same time: one at a time.
    await c.query("SELECT pg_advisory_lock(hashtext('sledge_auth_test'))");
    await c.query("SET password_encryption = 'scram-sha-256'");
    const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [AUTH_ROLE]);
    // The password is re-set every time so that it is stored as scram whatever the server default.
    await c.query(`${exists.rowCount ? 'ALTER' : 'CREATE'} ROLE ${AUTH_ROLE} LOGIN PASSWORD '${AUTH_PASSWORD}'`);
    if ((await wrongPasswordRefusal(s)) === '28P01') return;

    const hba = String((await c.query('SHOW hba_file')).rows[0].hba_file);
    const current = String((await c.query('SELECT pg_read_file($1) AS t', [hba])).rows[0].t);
    // First match wins: the rules must come before any rule that trusts everyone.
    const firstRules = current
      .split('\n')
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .filter((l) => l && !l.startsWith('#'))
      .slice(0, RULES.length);
    if (RULES.some((r, i) => firstRules[i] !== r)) {
      const next = `# sledge tests: the wrong-password fixture (one role, password checked)\n${RULES.join('\n')}\n${current}`;
      const lo = await c.query("SELECT lo_from_bytea(0, convert_to($1, 'UTF8')) AS oid", [next]);
      const oid = Number(lo.rows[0].oid);
      try {
        await c.query('SELECT lo_export($1, $2)', [oid, hba]);
      } finally {
        await c.query('SELECT lo_unlink($1)', [oid]);
      }
    }
    await c.query('SELECT pg_reload_conf()');
    // The postmaster reloads asynchronously: wait until a wrong password is refused.
    const end = Date.now() + 10_000;
    for (;;) {
      const code = await wrongPasswordRefusal(s);
      if (code === '28P01') return;
      if (Date.now() > end) {
        throw new Error(
          `PostgreSQL at ${s.host}:${s.port} still lets ${AUTH_ROLE} in with a wrong password (${code ?? 'accepted'}) after adding "${RULES[0]}" to ${hba}: ` +
            'put that line at the top of pg_hba.conf by hand and reload',
        );
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await c.end();
  }
}
