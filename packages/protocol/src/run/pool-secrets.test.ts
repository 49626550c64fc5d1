import { describe, expect, it } from 'vitest';
import { assertPoolInheritance, parseTarget, poolInheritanceFaults, poolSessionTarget } from '../index.js';
import { err } from '../test/err.js';

/**
 * The rule behind issue 30 item 1: a pool connection that points elsewhere
 * (a field the secret is bound to differs) and has no secret of its own must
 * not inherit a secret filled in from storage.
 */
describe('pool connections and filled-in secrets', () => {
  const target = (connections: Record<string, unknown>[]) =>
    parseTarget({ engine: 'postgresql', host: '10.0.0.1', port: 5432, user: 'tpcc', password: 'saved-pw', superuserPassword: 'saved-su', database: 'tpcc', pool: { connections } }) as unknown as Record<string, unknown>;
  const both = ['password', 'superuserPassword'];

  it('a connection that changes the port and brings no password: a fault naming the password', () => {
    expect(poolInheritanceFaults(target([{ name: 'a' }, { name: 'b', port: 6543 }]), both)).toEqual([{ index: 1, name: 'b', secret: 'password', differs: ['port'] }]);
    const e = err(() => assertPoolInheritance(target([{ name: 'b', port: 6543 }]), ['password'], undefined, 'saved configuration 7'));
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.field).toBe('target.pool.connections.0.password');
    expect(e.message).toMatch(/pool connection b changes the target's port but has no password of its own.*saved configuration 7.*type the password for that connection/);
  });

  it('each bound field counts (host, user, sslmode); unbound ones (database) do not', () => {
    expect(poolInheritanceFaults(target([{ name: 'h', host: 'evil.example' }]), ['password'])[0]?.differs).toEqual(['host']);
    expect(poolInheritanceFaults(target([{ name: 'u', user: 'other' }]), both).map((f) => f.secret)).toEqual(['password']);
    expect(poolInheritanceFaults(target([{ name: 't', sslmode: 'disable' }]), ['password'])[0]?.differs).toEqual(['sslmode']);
    expect(poolInheritanceFaults(target([{ name: 'd', database: 'tpcc2' }]), both)).toEqual([]);
  });

  it('a connection with a password of its own (even empty) inherits nothing', () => {
    expect(poolInheritanceFaults(target([{ name: 'b', port: 6543, password: 'typed', superuserPassword: '' }]), both)).toEqual([]);
  });

  it('a secret typed in the request (not filled in) goes where its pool sends it', () => {
    expect(poolInheritanceFaults(target([{ name: 'b', port: 6543 }]), [])).toEqual([]);
  });

  it('the stored target\'s own pool connection of that name, pointing at the same place, keeps inheriting; moved, it does not', () => {
    const saved = target([{ name: 'b', port: 6543 }]);
    expect(poolInheritanceFaults(target([{ name: 'b', port: 6543 }]), both, saved)).toEqual([]);
    expect(poolInheritanceFaults(target([{ name: 'b', port: 6544 }]), both, saved).map((f) => f.differs)).toEqual([['port']]);
    expect(poolInheritanceFaults(target([{ name: 'c', port: 6543 }]), ['password'], saved)).toHaveLength(1);
    // A saved connection that had its own password never routed the target's there.
    expect(poolInheritanceFaults(target([{ name: 'b', port: 6543 }]), ['password'], target([{ name: 'b', port: 6543, password: 'its-own' }]))).toHaveLength(1);
  });

  it('admin secrets (superuser, system) never reach a pool connection: a session there gets only the ones the connection sets', () => {
    const t = target([{ name: 'b', port: 6543 }, { name: 'c', superuserPassword: 'its-own-su' }]);
    const conns = (t['pool'] as { connections: { name: string }[] }).connections;
    expect(poolSessionTarget(t, conns[0]!)).toMatchObject({ port: 6543, password: 'saved-pw', superuserPassword: '' });
    expect(poolSessionTarget(t, conns[1]!)).toMatchObject({ port: 5432, superuserPassword: 'its-own-su' });
    const ora = parseTarget({ engine: 'oracle', connectString: 'db1:1521/x', systemPassword: 'sys-pw', password: 'pw', pool: { connections: [{ name: 'o', connectString: 'db2:1521/x' }] } }) as unknown as Record<string, unknown>;
    expect(poolSessionTarget(ora, { name: 'o', connectString: 'db2:1521/x' })).toMatchObject({ systemPassword: '', password: 'pw' });
    expect(poolInheritanceFaults(ora, ['systemPassword', 'password']).map((f) => f.secret)).toEqual(['password']);
  });
});
