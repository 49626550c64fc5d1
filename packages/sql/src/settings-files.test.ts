import { describe, expect, it } from 'vitest';
import { ENGINES } from '@sledge/protocol';
import { settingsFromRows } from '@sledge/core';
import { sqlFile, sqlSet } from './index.js';

/**
 * engine/settings.sql (docs/compare.md): what a run records about its engine.
 * Every engine has a `settings` statement; the engines that keep per-statement
 * counters have `statement_counters` and the `statements_missing` check that
 * says why they cannot be read. SQL Server, Oracle and Db2 have no live
 * server in the tests: this is their offline check.
 */
const COUNTERS = ['postgresql', 'mysql', 'mariadb'];
/** The catalog each engine's settings statement reads. */
const READS: Record<string, RegExp[]> = {
  postgresql: [/\bpg_settings\b/],
  mysql: [/performance_schema\.global_variables/],
  mariadb: [/information_schema\.GLOBAL_VARIABLES/],
  sqlite: [/pragma_journal_mode/, /pragma_synchronous/, /pragma_cache_size/, /pragma_page_size/, /pragma_locking_mode/, /pragma_temp_store/, /pragma_busy_timeout/],
  duckdb: [/duckdb_settings\(\)/],
  mssql: [/sys\.configurations/, /value_in_use/, /sys\.databases/],
  oracle: [/v\$parameter/],
  db2: [/sysibmadm\.dbcfg/i, /sysibmadm\.dbmcfg/i],
};

describe('engine/settings.sql', () => {
  for (const engine of ENGINES) {
    it(`${engine}: a settings statement on the engine's own catalog; statement counters only where the engine keeps them`, () => {
      const st = sqlSet(engine, 'engine').statements('settings.sql');
      expect(st.settings, engine).toBeDefined();
      for (const re of READS[engine]!) expect(st.settings, `${engine} settings reads ${re}`).toMatch(re);
      // Named statements come without their closing semicolon (drivers send them as they are).
      for (const [name, sql] of Object.entries(st)) expect(sql, `${engine} ${name}`).not.toMatch(/;\s*$/);
      expect(Boolean(st.statement_counters), engine).toBe(COUNTERS.includes(engine));
      expect(Boolean(st.statements_missing), engine).toBe(COUNTERS.includes(engine));
    });
  }

  it('MariaDB has its own file (no performance_schema.global_variables there); MySQL never reads it', () => {
    expect(sqlFile('mariadb', 'engine', 'settings.sql')).toMatch(/mariadb[/\\]engine[/\\]settings\.sql$/);
    expect(sqlFile('mysql', 'engine', 'settings.sql')).toMatch(/mysql[/\\]engine[/\\]settings\.sql$/);
  });

  it("only PostgreSQL resets the reading session first (its query session sets parallelism, timeout and DateStyle)", () => {
    for (const engine of ENGINES) expect(Boolean(sqlSet(engine, 'engine').statements('settings.sql').reset_session), engine).toBe(engine === 'postgresql');
  });

  it('rows shaped as SQL Server, Oracle and Db2 return them map to settings (values as text, sources kept)', () => {
    // sys.configurations: nvarchar value_in_use; a pending change named in the source.
    expect(settingsFromRows([['max degree of parallelism', '8', null, 'sys.configurations (pending: 4)']]).settings).toEqual([{ name: 'max degree of parallelism', value: '8', source: 'sys.configurations (pending: 4)' }]);
    // v$parameter: VALUE may be NULL (an unset parameter).
    expect(settingsFromRows([['db_recovery_file_dest', null, null, 'default']]).settings).toEqual([{ name: 'db_recovery_file_dest', value: '', source: 'default' }]);
    // DBCFG/DBMCFG: prefixed names; SSL key stash and password-ish settings withheld by name, the keystore location (a path) kept.
    const db2 = settingsFromRows([
      ['db.locklist', 'AUTOMATIC', null, 'db cfg (AUTOMATIC)'],
      ['dbm.ssl_svr_stash', '/home/db2inst1/keystore.sth', null, 'dbm cfg'],
      ['dbm.keystore_location', '/home/db2inst1/keystore.p12', null, 'dbm cfg'],
      ['dbm.keystore_password', 'x', null, 'dbm cfg'],
    ]);
    expect(db2.settings.map((s) => s.name)).toEqual(['db.locklist', 'dbm.keystore_location', 'dbm.ssl_svr_stash']);
    expect(db2.withheld).toEqual(['dbm.keystore_password']);
  });
});
