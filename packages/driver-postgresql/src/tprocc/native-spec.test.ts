import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { PgTproccTarget as PostgresqlTarget } from './target.js';
import { conninfoValue, libpqConninfo } from '../engine/config.js';
import { driver } from '../index.js';
import { callStatements } from './vu.js';

const t: PostgresqlTarget = {
  engine: 'postgresql', host: 'db.example', port: 6543, user: 'tpcc', password: 'tpw', database: 'tpccdb', superuser: 'admin',
  superuserPassword: 'spw', defaultDatabase: 'maint', sslmode: 'require', tablespace: 'fast', storedProcs: false, partition: false, vacuum: false, prepared: true, noStoredProcs: false,
};

describe('libpq conninfo', () => {
  it('carries the settings of the pg sessions for the TPC user, with a 5 s connect timeout', () => {
    expect(libpqConninfo(t, 'user')).toBe('host=db.example port=6543 user=tpcc password=tpw dbname=tpccdb sslmode=require connect_timeout=5');
    expect(libpqConninfo(t, 'superuser')).toBe('host=db.example port=6543 user=admin password=spw dbname=maint sslmode=require connect_timeout=5');
  });

  it('leaves out an empty password (trust, .pgpass, PGPASSWORD)', () => {
    expect(libpqConninfo({ ...t, password: '' }, 'user')).not.toContain('password');
  });

  it('quotes values with spaces, quotes and backslashes', () => {
    expect(conninfoValue('plain_name-1.2')).toBe('plain_name-1.2');
    expect(conninfoValue('')).toBe("''");
    expect(conninfoValue("it's a pw\\x")).toBe("'it\\'s a pw\\\\x'");
    expect(libpqConninfo({ ...t, password: "a b'c" }, 'user')).toContain("password='a b\\'c'");
  });

  const psql = spawnSync('psql', ['--version']).status === 0;
  it.skipIf(!psql)('is a connection string libpq accepts: psql connects with it to the local server', () => {
    const local: PostgresqlTarget = { ...t, host: '127.0.0.1', port: 5432, superuser: 'postgres', superuserPassword: "pw with 'quote", defaultDatabase: 'postgres', sslmode: 'prefer' };
    const r = spawnSync('psql', ['-X', '-At', '-d', `${libpqConninfo(local, 'superuser')} application_name=sledge-spec-test`, '-c', 'select current_user, current_database(), current_setting(\'application_name\')'], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('postgres|postgres|sledge-spec-test');
  });
});

describe('tprocc nativeVu.spec', () => {
  it('describes a libpq loop with the VU sessions\' statements and the SLRBK rollback', () => {
    const spec = driver.workloads.tprocc!.nativeVu!.spec(t);
    if (spec.kind !== 'libpq') throw new Error(`expected a libpq spec, got ${spec.kind}`);
    expect(spec.conninfo).toBe(libpqConninfo(t, 'user'));
    expect(spec.conninfo).not.toContain('application_name');
    expect(spec.statements).toEqual(callStatements(t));
    expect(spec.statements.neworder).toMatch(/^SELECT neword\(\$1::integer/);
    expect(spec.rollbackSqlstate).toBe('SLRBK');
  });

  it('follows target.storedProcs to the CALL statements', () => {
    const spec = driver.workloads.tprocc!.nativeVu!.spec({ ...t, storedProcs: true });
    expect(spec.statements).toEqual(callStatements({ ...t, storedProcs: true }));
    expect(spec.statements.payment).toMatch(/^CALL payment\(/);
  });

  it('is not offered with target.noStoredProcs (client-side SQL runs in the TypeScript loop), which also reports no stored procedures', () => {
    const hooks = driver.workloads.tprocc!.nativeVu!;
    expect(hooks.unsupported?.(t)).toBeUndefined();
    expect(hooks.unsupported?.({ ...t, noStoredProcs: true })).toMatch(/target\.noStoredProcs/);
    expect(driver.features(t).storedProcedures).toBe(true);
    expect(driver.features({ ...t, noStoredProcs: true }).storedProcedures).toBe(false);
  });
});
