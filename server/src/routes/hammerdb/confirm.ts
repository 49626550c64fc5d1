import { existsSync } from 'node:fs';
import { keyName, sectionOf } from './dicts.js';
import type { HdbSession } from './state.js';

/**
 * The question HammerDB's buildschema and deleteschema ask before they start
 * (its yes/no message box, which hammerdbcli prints and answers "yes" itself),
 * for a TPROC-C schema: the wording HammerDB 4.12 uses for each database,
 * with its values upper-cased as HammerDB prints them. SQLite is Sledge's
 * (HammerDB has no SQLite target): it names the database file, as is.
 * Lines are returned as HammerDB prints them (the message's own line breaks).
 */
export function confirmLines(s: HdbSession, what: 'build' | 'delete', warehouses?: number): string[] {
  const v = (suffix: string) => {
    const key = keyName(s.prefix, suffix);
    const section = sectionOf(s.dict, key);
    return section ? (s.dict[section]?.[key] ?? '') : '';
  };
  const up = (suffix: string) => v(suffix).toUpperCase();
  const build = (name: string) => `Ready to create a ${warehouses ?? v('count_ware')} Warehouse ${name} TPROC-C schema`;
  switch (s.prefix) {
    case 'pg':
      return what === 'build'
        ? [build('PostgreSQL'), `in host ${up('host')}:${up('port')} sslmode ${up('sslmode')} under user ${up('user')} in database ${up('dbase')}?`]
        : [`Do you want to delete the ${up('dbase')} TPROC-C schema and role ${up('user')}`, ` in host ${up('host')}:${up('port')} under user ${up('superuser')}?`];
    case 'mysql':
    case 'maria': {
      // HammerDB's "connector": host:socket for a local host when a socket is set, else host:port. Sledge connects
      // through the socket only when the file exists (keymap.ts), so that is when it names it.
      const host = v('host');
      const socket = v('socket');
      const local = host === '127.0.0.1' || host.toLowerCase() === 'localhost';
      const connector = `${host}:${local && socket !== '' && socket.toLowerCase() !== 'null' && existsSync(socket) ? socket : v('port')}`.toUpperCase();
      return what === 'build'
        ? [build(s.prefix === 'maria' ? 'MariaDB' : 'MySQL'), `in host ${connector} under user ${up('user')} in database ${up('dbase')} with storage engine ${up('storage_engine')}?`]
        : [`Do you want to delete the ${up('dbase')} TPROC-C schema`, ` in host ${connector} under user ${up('user')}?`];
    }
    case 'mssqls':
      // Sledge runs on Linux, where HammerDB connects to mssqls_linux_server.
      return what === 'build'
        ? [build('MS SQL Server'), `in host ${up('linux_server')} in database ${up('dbase')}?`]
        : [`Do you want to delete the ${up('dbase')} TPROC-C schema`, `in host ${up('linux_server')}?`];
    case 'db2':
      return what === 'build'
        ? [build('Db2'), `under user ${up('user')} in database ${up('dbase')}?`]
        : [`Do you want to delete the ${up('dbase')} Db2 TPROC-C schema`, `under user ${up('user')}?`];
    case 'ora':
      return what === 'build'
        ? [build('Oracle'), `in database ${up('instance')} under user ${up('tpcc_user')} in tablespace ${up('tpcc_def_tab')}?`]
        : [`Do you want to delete the ${up('tpcc_user')} Oracle TPROC-C schema`, `in the instance ${up('instance')}?`];
    default:
      return what === 'build' ? [build('SQLite'), `in file ${v('file')}?`] : ['Do you want to delete the TPROC-C schema', `in file ${v('file')}?`];
  }
}
