import { describe, expect, it } from 'vitest';
import type { PostgresqlTarget } from '@sledge/protocol';
import { APP_LOADER, APP_MONITOR, CONNECT_TIMEOUT_MS, loginFields, pgConfig, sslFor, vuApplicationName } from './config.js';

const t: PostgresqlTarget = {
  engine: 'postgresql', host: 'db.example', port: 6543, user: 'tpcc', password: 'tpw', database: 'tpccdb', superuser: 'admin',
  superuserPassword: 'spw', defaultDatabase: 'maint', sslmode: 'require', vacuum: false, prepared: true, noStoredProcs: false,
};

describe('target -> pg config', () => {
  it('maps the TPC user to the TPC database', () => {
    expect(pgConfig(t, 'user', vuApplicationName(7))).toEqual({
      host: 'db.example', port: 6543, user: 'tpcc', password: 'tpw', database: 'tpccdb', ssl: { rejectUnauthorized: false },
      application_name: 'sledge-vu-7', connectionTimeoutMillis: 5000, keepAlive: true,
    });
  });

  it('maps the superuser to the default database', () => {
    const c = pgConfig(t, 'superuser', APP_MONITOR);
    expect([c.user, c.password, c.database, c.application_name]).toEqual(['admin', 'spw', 'maint', 'sledge-monitor']);
  });

  it('names sessions so samplers can recognise them', () => {
    expect([APP_MONITOR, APP_LOADER, vuApplicationName(2)]).toEqual(['sledge-monitor', 'sledge-loader', 'sledge-vu-2']);
  });

  it('has a 5 s connect timeout', () => {
    expect(CONNECT_TIMEOUT_MS).toBe(5000);
    expect(pgConfig(t, 'superuser', APP_LOADER).connectionTimeoutMillis).toBe(5000);
  });

  it('maps sslmode as libpq does', () => {
    expect(sslFor('disable')).toBe(false);
    expect(sslFor('prefer')).toEqual({ rejectUnauthorized: false });
    expect(sslFor('require')).toEqual({ rejectUnauthorized: false });
    expect(sslFor('verify-full')).toEqual({ rejectUnauthorized: true });
  });

  it('names the fields of each login for errors', () => {
    expect(loginFields('user')).toEqual({ user: 'target.user', password: 'target.password', database: 'target.database' });
    expect(loginFields('superuser')).toEqual({ user: 'target.superuser', password: 'target.superuserPassword', database: 'target.defaultDatabase' });
  });
});
