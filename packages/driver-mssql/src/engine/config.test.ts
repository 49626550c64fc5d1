import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { SledgeError, validate, MssqlTarget } from '@sledge/protocol';
import { mssqlAuthentication, tediousConfig } from './config.js';

const tedious = createRequire(import.meta.url)('tedious') as typeof import('tedious');
const base = validate(MssqlTarget, { engine: 'mssql', host: 'db.example', port: 14330, user: 'sa', password: 'S3cret!', database: 'tpcc' });

describe('target -> tedious configuration', () => {
  it('maps a SQL login with the TLS flags', () => {
    const c = tediousConfig({ ...base, encrypt: true, trustServerCertificate: false }, { database: 'master', appName: 'sledge-admin' });
    expect(c.server).toBe('db.example');
    expect(c.authentication).toEqual({ type: 'default', options: { userName: 'sa', password: 'S3cret!' } });
    expect(c.options).toMatchObject({ port: 14330, database: 'master', encrypt: true, trustServerCertificate: false, appName: 'sledge-admin', requestTimeout: 0, useUTC: true });
    const plain = tediousConfig({ ...base, encrypt: false, trustServerCertificate: true }, { database: 'tpcc', appName: 'x' });
    expect(plain.options).toMatchObject({ encrypt: false, trustServerCertificate: true, database: 'tpcc' });
  });

  it('uses the target defaults (encrypt on, trust the certificate)', () => {
    const c = tediousConfig(base, { database: 'tpcc', appName: 'x' });
    expect(c.options?.encrypt).toBe(true);
    expect(c.options?.trustServerCertificate).toBe(true);
  });

  it('maps Azure AD password authentication', () => {
    const t = { ...base, authentication: 'azure-active-directory-password' as const, user: 'bench@contoso.com', azureClientId: ' 1111-2222 ', azureTenantId: 'contoso.onmicrosoft.com' };
    expect(mssqlAuthentication(t)).toEqual({
      type: 'azure-active-directory-password',
      options: { userName: 'bench@contoso.com', password: 'S3cret!', clientId: '1111-2222', tenantId: 'contoso.onmicrosoft.com' },
    });
    const noTenant = mssqlAuthentication({ ...t, azureTenantId: '' });
    expect(noTenant.options).not.toHaveProperty('tenantId');
  });

  it('asks for the client id when Azure AD has none', () => {
    const t = { ...base, authentication: 'azure-active-directory-password' as const };
    try {
      mssqlAuthentication(t);
      throw new Error('expected a SledgeError');
    } catch (e) {
      expect(SledgeError.is(e)).toBe(true);
      expect((e as SledgeError).code).toBe('SLEDGE_E_VALIDATION');
      expect((e as SledgeError).field).toBe('target.azureClientId');
    }
  });

  it('is accepted by tedious for both authentication types', () => {
    for (const t of [base, { ...base, authentication: 'azure-active-directory-password' as const, azureClientId: 'app' }]) {
      const conn = new tedious.Connection(tediousConfig(t, { database: 'tpcc', appName: 'sledge-test' }));
      conn.on('error', () => undefined);
      conn.close();
    }
  });
});
