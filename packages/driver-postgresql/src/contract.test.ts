import { beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { driverContract } from '@sledge/driver-testkit';
import { quiet, quietTimeout } from '../../../scripts/test-quiet.mjs';
import { driver } from './index.js';
import { AUTH_ROLE, ensurePgAuthRole } from './testing/auth.js';
import { badAuth, contractTarget, PG_HOST, PG_PORT, unreachable } from './testing/contract.js';

const host = PG_HOST;
const port = PG_PORT;
const base = contractTarget('sledge_pgtest', 'sledge_pgtest');

/** A role that must authenticate with a password (testing/auth.ts prepares it): the wrong password is refused with 28P01. */
beforeAll(() => ensurePgAuthRole({ host, port, superuser: base.superuser, superuserPassword: base.superuserPassword }));

describe('wrong-password fixture', () => {
  it('has the sledge_auth_test role behind a scram-sha-256 pg_hba rule (prepared by the suite itself)', async () => {
    const hint = 'the wrong-password test needs a role that must authenticate: ensurePgAuthRole() (src/testing/auth.ts) prepares it';
    const c = new pg.Client({ host, port, user: base.superuser, password: base.superuserPassword, database: 'postgres', connectionTimeoutMillis: 5000 });
    await c.connect();
    try {
      const role = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [AUTH_ROLE]);
      expect(role.rowCount, `role ${AUTH_ROLE} is missing: ${hint}`).toBe(1);
      const rule = await c.query(
        `SELECT auth_method FROM pg_hba_file_rules WHERE $1 = ANY(user_name) AND type = 'host' ORDER BY line_number LIMIT 1`,
        [AUTH_ROLE],
      );
      expect(rule.rows[0]?.auth_method, `pg_hba.conf has no scram-sha-256 rule for ${AUTH_ROLE}: ${hint}`).toBe('scram-sha-256');
    } finally {
      await c.end();
    }
    // And the server really refuses a wrong password for it.
    const bad = new pg.Client({ host, port, user: AUTH_ROLE, password: 'wrong-password-for-test', database: 'postgres', connectionTimeoutMillis: 5000 });
    const err = await bad.connect().then(
      async () => {
        await bad.end();
        return null;
      },
      (e: unknown) => e as { code?: string },
    );
    expect(err?.code, `a wrong password for ${AUTH_ROLE} was accepted: ${hint}`).toBe('28P01');
  });
});

driverContract({
  // The engine TPM counter is server-wide: only the database servers need to be quiet.
  quiet: { run: (fn) => quiet(fn, 'db'), timeout: quietTimeout },
  name: 'postgresql (functions)',
  driver,
  target: base,
  unreachableTarget: unreachable(base),
  badAuthTarget: badAuth(base),
  // target.noStoredProcs on the same schema: the VUs send client.sql instead of calling the functions.
  vuVariants: [{ name: 'client-side SQL', target: { ...base, noStoredProcs: true } }],
});

// The procedures build (target.storedProcs) is contract.procs.test.ts: a file of its own, so the live tier's two workers run both builds at once.
