import { describe, expect, it } from 'vitest';
import { errorClassOf } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { classifyError } from './errors.js';

const pg = (code: string, message = `error ${code}`) => Object.assign(new Error(message), { code });

describe('PostgreSQL errors -> run error classes', () => {
  it.each([
    [pg('40001'), 'serialization'],
    [pg('40P01'), 'serialization'],
    [pg('57P01', 'terminating connection due to administrator command'), 'connection'],
    [pg('57P02'), 'connection'],
    [pg('57P03', 'the database system is starting up'), 'connection'],
    [pg('08006'), 'connection'],
    [pg('53300', 'too many connections for role "faults"'), 'connection'],
    [pg('55000', 'database "faults_x" is not currently accepting connections'), 'connection'],
    [new Error('Connection terminated unexpectedly'), 'connection'],
    [pg('ECONNREFUSED'), 'connection'],
    [pg('57014', 'canceling statement due to statement timeout'), 'timeout'],
    [pg('55P03'), 'timeout'],
    [pg('23505'), 'constraint'],
    [pg('23503'), 'constraint'],
    [pg('42P01'), 'other'],
  ] as Array<[unknown, string]>)('%s -> %s', (e, cls) => {
    expect(errorClassOf(classifyError(e).kind)).toBe(cls);
  });

  it('classifies a connect failure by its cause', () => {
    const e = new SledgeError('SLEDGE_E_CONNECT', 'PostgreSQL is not accepting connections now', { cause: pg('57P03') });
    expect(classifyError(e)).toMatchObject({ kind: 'connection', code: '57P03' });
  });
});
