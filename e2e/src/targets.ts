/**
 * The PostgreSQL target the browser specs build into: a database and owner
 * of the spec's own name, created by the postgres superuser. The passwords
 * are never checked (trust authentication on 127.0.0.1); the specs assert
 * that they never show in pages, exports or logs.
 */
export function pgTarget(db: string, password = 'e2e-pw-unused-with-trust') {
  return {
    engine: 'postgresql',
    host: '127.0.0.1',
    port: 5432,
    user: db,
    password,
    database: db,
    superuser: 'postgres',
    superuserPassword: 'e2e-su-pw-unused-with-trust',
    defaultDatabase: 'postgres',
  };
}
