import { describe, expect, it } from 'vitest';
import { diffSettings, isSecretSetting, settingsFromRows } from './settings.js';

describe('isSecretSetting', () => {
  it('withholds settings whose name can hold a password, key, token or connection string', () => {
    for (const n of [
      'primary_conninfo',
      'ssl_passphrase_command',
      's3_secret_access_key',
      's3_session_token',
      's3_access_key_id',
      'azure_storage_connection_string',
      'file_key_management_encryption_key',
      'wsrep_sst_auth_password',
      'ldap_bind_password',
      'api_key',
      'key',
    ]) {
      expect(isSecretSetting(n, 'x'), n).toBe(true);
    }
  });

  it('keeps key files and paths, sizes and counts that only contain "key" or "token"', () => {
    for (const n of ['ssl_key_file', 'ssl_cert_file', 'key_buffer_size', 'innodb_ft_max_token_size', 'work_mem', 'keep_alive']) {
      expect(isSecretSetting(n, '8MB'), n).toBe(false);
    }
  });

  it('withholds any value that carries a password, whatever the name', () => {
    expect(isSecretSetting('init_connect', "host=db password=hunter2")).toBe(true);
    expect(isSecretSetting('some_url', 'postgres://app:hunter2@db/x')).toBe(true);
    expect(isSecretSetting('some_url', 'postgres://db/x')).toBe(false);
  });

  it('still withholds a password file setting whose name says password (its name is the secret kind)', () => {
    expect(isSecretSetting('ssl_passphrase_file', '/etc/x')).toBe(true);
  });
});

describe('settingsFromRows', () => {
  it('maps (name, value, unit, source) rows, sorted, secrets withheld by name only', () => {
    const { settings, withheld } = settingsFromRows([
      ['work_mem', '8192', 'kB', 'database'],
      ['primary_conninfo', 'host=x password=y', null, 'default'],
      ['autovacuum', 'on', null, 'default'],
      ['cache_size', -65536, '', 'pragma'],
      ['', 'nameless', null, null],
      ['work_mem', '4096', 'kB', 'default'],
    ]);
    expect(settings).toEqual([
      { name: 'autovacuum', value: 'on', source: 'default' },
      { name: 'cache_size', value: '-65536', source: 'pragma' },
      { name: 'work_mem', value: '8192', unit: 'kB', source: 'database' },
    ]);
    expect(withheld).toEqual(['primary_conninfo']);
    expect(JSON.stringify({ settings, withheld })).not.toContain('password=y');
  });
});

describe('diffSettings', () => {
  it('lists the settings whose value or unit differs, and those only one run has', () => {
    const a = [
      { name: 'work_mem', value: '4096', unit: 'kB', source: 'default' },
      { name: 'jit', value: 'on' },
      { name: 'old_only', value: '1' },
    ];
    const b = [
      { name: 'work_mem', value: '8192', unit: 'kB', source: 'database' },
      { name: 'jit', value: 'on' },
      { name: 'new_only', value: '2' },
    ];
    const d = diffSettings(a, b);
    expect(d.compared).toBe(4);
    expect(d.differ).toEqual([
      { name: 'new_only', a: null, b: '2' },
      { name: 'old_only', a: '1', b: null },
      { name: 'work_mem', a: '4096 kB', b: '8192 kB', sourceA: 'default', sourceB: 'database' },
    ]);
  });
});
