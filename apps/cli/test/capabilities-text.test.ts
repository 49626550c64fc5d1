import { describe, expect, it } from 'vitest';
import type { Capabilities } from '@sledge/protocol';
import { capabilitiesText } from '../src/capabilities.js';

/** `sledge capabilities` as text, from the server's answer (no server needed). */
const caps = (engines: Capabilities['engines']): Capabilities => ({ version: '0.1.0', node: 'v20.19.0', cpus: 2, generator: { active: 'native' }, engines });
const base = { available: true, workloads: ['tprocc', 'tproch'] } as const;

describe('capabilitiesText', () => {
  it('says per engine which loop runs its virtual users: native, or JavaScript with why and a WARNING with the cost', () => {
    const text = capabilitiesText(
      caps([
        { ...base, engine: 'postgresql', displayName: 'PostgreSQL', library: 'pg', libraryVersion: '8.16.3', vuLoop: { active: 'native', name: 'the native libpq loop' } },
        {
          ...base,
          engine: 'mariadb',
          displayName: 'MariaDB',
          library: 'mysql2',
          vuLoop: {
            active: 'javascript',
            name: 'the native MariaDB C connector loop',
            reason: 'the native MariaDB/MySQL VU loop is not built; it needs the MariaDB C connector (libmariadb-dev)',
            cost: "mysql2 costs 2.4-6x the native loop's client CPU per transaction",
          },
        },
        { ...base, engine: 'sqlite', displayName: 'SQLite', library: 'better-sqlite3', vuLoop: { active: 'javascript', reason: 'the SQLite driver has no native VU loop' } },
        {
          ...base,
          engine: 'duckdb',
          displayName: 'DuckDB',
          library: '@duckdb/node-api',
          workloads: ['tproch', 'tprocc', 'chbench'],
          limited: { tprocc: 'Schema only (build, check, delete; no runs). DuckDB runs no TPROC-C transactions.', chbench: 'Analytic streams only: runs take tprocc.vus 0. DuckDB runs no TPROC-C transactions.' },
        },
      ]),
    );
    expect(text.split('\n')).toEqual([
      'Sledge 0.1.0 on Node v20.19.0, 2 CPUs; row generator: native',
      'Success ... loaded library pg 8.16.3 for PostgreSQL',
      '          virtual users: the native libpq loop',
      'Success ... loaded library mysql2 for MariaDB',
      '          virtual users: JavaScript (the native MariaDB/MySQL VU loop is not built; it needs the MariaDB C connector (libmariadb-dev))',
      "          WARNING: mysql2 costs 2.4-6x the native loop's client CPU per transaction",
      'Success ... loaded library better-sqlite3 for SQLite',
      '          virtual users: JavaScript (the SQLite driver has no native VU loop)',
      'Success ... loaded library @duckdb/node-api for DuckDB',
      '          tprocc: Schema only (build, check, delete; no runs).',
      '          chbench: Analytic streams only: runs take tprocc.vus 0.',
      '',
    ]);
  });

  it("an in-process engine (features.mainThreadSessions): its VUs on the server's main thread, and its workloads", () => {
    const features = { storedProcedures: false, tpmSource: 'client', bulkFormat: 'csv', asyncSessions: true, createsDatabase: false, partition: false, mainThreadSessions: true } as const;
    const text = capabilitiesText(caps([{ ...base, engine: 'duckdb', displayName: 'DuckDB', library: '@duckdb/node-api', workloads: ['tproch', 'script'], features }]));
    expect(text.split('\n').slice(1)).toEqual([
      'Success ... loaded library @duckdb/node-api for DuckDB',
      "          virtual users: JavaScript, on the server's main thread (the database runs in the server's process, one instance per file); workloads: tproch, script",
      '',
    ]);
  });

  it('a driver that does not load: why and how to install, and no VU loop line', () => {
    const text = capabilitiesText(
      caps([{ engine: 'oracle', displayName: 'Oracle', available: false, library: 'oracledb', reason: 'Cannot find module oracledb', install: 'pnpm add oracledb', workloads: [] }]),
    );
    expect(text).toBe(
      'Sledge 0.1.0 on Node v20.19.0, 2 CPUs; row generator: native\nFailed  ... could not load library oracledb for Oracle: Cannot find module oracledb\n          to install: pnpm add oracledb\n',
    );
  });
});
