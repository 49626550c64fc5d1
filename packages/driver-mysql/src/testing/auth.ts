import { rootConnection } from './live.js';

export const AUTH_USER = 'sledge_auth_test';

/** The dedicated user of the wrong-password test: sledge_auth_test@'127.0.0.1' IDENTIFIED BY 'right-password'. */
export async function ensureAuthTestUser(): Promise<void> {
  const c = await rootConnection();
  try {
    await c.query(`CREATE USER IF NOT EXISTS ${AUTH_USER}@'127.0.0.1' IDENTIFIED BY 'right-password'`);
    await c.query(`ALTER USER ${AUTH_USER}@'127.0.0.1' IDENTIFIED BY 'right-password'`);
  } finally {
    await c.end();
  }
}
