import { describe, expect, it } from 'vitest';
import { parseMssqlUrl } from './url.js';

describe('parseMssqlUrl', () => {
  it('reads user, password, host, port, database and TLS flags', () => {
    const t = parseMssqlUrl('mssql://sa:p%40ss%3Aword@sql.example:14333/bench?encrypt=false&trustServerCertificate=true');
    expect(t).toMatchObject({ engine: 'mssql', user: 'sa', password: 'p@ss:word', host: 'sql.example', port: 14333, database: 'bench', encrypt: false, trustServerCertificate: true });
    expect(t.authentication).toBe('sql');
    expect(t.useBulk).toBe(true);
  });

  it('applies the target defaults', () => {
    const t = parseMssqlUrl('mssql://localhost');
    expect(t).toMatchObject({ host: 'localhost', port: 1433, user: 'sa', database: 'tpcc', encrypt: true, trustServerCertificate: true, checkpoint: false });
  });

  it('reads Azure AD and loader options', () => {
    const t = parseMssqlUrl('mssql://me%40contoso.com:pw@x.database.windows.net/db1?authentication=azure-active-directory-password&clientId=abc&tenantId=contoso&useBulk=0&checkpoint=1');
    expect(t).toMatchObject({ authentication: 'azure-active-directory-password', user: 'me@contoso.com', azureClientId: 'abc', azureTenantId: 'contoso', useBulk: false, checkpoint: true });
  });

  it('rejects other schemes and bad values with the field', () => {
    expect(() => parseMssqlUrl('postgres://x')).toThrow(/mssql:\/\//);
    expect(() => parseMssqlUrl('mssql://h/db?encrypt=maybe')).toThrow(/target.encrypt/);
    expect(() => parseMssqlUrl('mssql://h/db?authentication=kerberos')).toThrow(/authentication/);
    expect(() => parseMssqlUrl('not a url')).toThrow(/not a URL/);
  });
});
