import { describe, expect, it } from 'vitest';
import { loopWarning as warn } from '../scripts/native-notes.mjs';

/** What `pnpm install` prints when a native VU loop cannot be built (build-native.mjs). */
describe('loopWarning', () => {
  it('a missing MariaDB C connector: one WARNING line with the engines, the cost and the package to install', () => {
    expect(warn('myvu', 'mariadb_config not found and no /usr/include/mariadb/mysql.h')).toBe(
      'WARNING: native MariaDB/MySQL VU loop not built (mariadb_config not found and no /usr/include/mariadb/mysql.h): ' +
        "MariaDB/MySQL virtual users will run in JavaScript, where mysql2 costs 2.4-6x the native loop's client CPU per transaction. " +
        'To fix: sudo apt-get install libmariadb-dev (mariadb-connector-c-devel on Fedora/RHEL, mariadb-connector-c on Homebrew), then pnpm --filter @sledge/worker-native build:native',
    );
  });

  it('a missing libpq names libpq-dev', () => {
    const w = warn('pgvu', 'pg_config not found');
    expect(w).toMatch(/^WARNING: native PostgreSQL VU loop not built \(pg_config not found\): PostgreSQL virtual users will run in JavaScript/);
    expect(w).toContain('sudo apt-get install libpq-dev');
    expect(w.split('\n')).toHaveLength(1);
  });

  it('a loop skipped on purpose is a note, not a warning', () => {
    expect(warn('myvu', 'SLEDGE_MYVU=off', true)).toBe('note: native MariaDB/MySQL VU loop not built (SLEDGE_MYVU=off); MariaDB/MySQL virtual users run in JavaScript');
  });
});
