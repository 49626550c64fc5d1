import { describe, expect, it } from 'vitest';
import { errorClassOf } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { classifyError } from './errors.js';

type Fields = { errno?: number; code?: string; message?: string };
const err = (f: Fields) => Object.assign(new Error(f.message ?? 'x'), f);

describe('MySQL and MariaDB errors -> run error classes', () => {
  it.each([
    [{ errno: 1213, code: 'ER_LOCK_DEADLOCK' }, 'serialization'],
    [{ errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' }, 'timeout'],
    [{ errno: 3024, code: 'ER_QUERY_TIMEOUT' }, 'timeout'],
    [{ errno: 1969, message: 'Query execution was interrupted (max_statement_time exceeded)' }, 'timeout'],
    [{ errno: 2006 }, 'connection'],
    [{ errno: 2013 }, 'connection'],
    [{ errno: 1927, message: 'Connection was killed' }, 'connection'],
    [{ errno: 1053 }, 'connection'],
    [{ errno: 1226, code: 'ER_USER_LIMIT_REACHED' }, 'connection'],
    [{ errno: 1203, code: 'ER_TOO_MANY_USER_CONNECTIONS' }, 'connection'],
    [{ errno: 1040, code: 'ER_CON_COUNT_ERROR' }, 'connection'],
    [{ code: 'ECONNRESET' }, 'connection'],
    [{ code: 'ECONNREFUSED' }, 'connection'],
    [{ code: 'PROTOCOL_CONNECTION_LOST' }, 'connection'],
    [{ errno: 1062 }, 'constraint'],
    [{ errno: 1452 }, 'constraint'],
    [{ errno: 1064 }, 'other'],
  ] as Array<[Fields, string]>)('%o -> %s', (f, cls) => {
    expect(errorClassOf(classifyError(err(f)).kind)).toBe(cls);
  });

  it('classifies a connect failure by its cause', () => {
    const e = new SledgeError('SLEDGE_E_CONNECT', 'MariaDB refused the connection', { cause: err({ errno: 1226 }) });
    expect(classifyError(e)).toMatchObject({ kind: 'connection', code: '1226' });
  });
});
