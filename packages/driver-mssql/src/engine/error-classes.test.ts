import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { errorClassOf } from '@sledge/core';
import { classifyError } from './errors.js';

const { RequestError } = createRequire(import.meta.url)('tedious') as typeof import('tedious');
const req = (number: number, cls = 13) => Object.assign(new RequestError(`error ${number}`, 'EREQUEST'), { number, class: cls });
const coded = (code: string) => Object.assign(new Error(code), { code });

describe('SQL Server errors -> run error classes', () => {
  it.each([
    [req(1205), 'serialization'],
    [req(3960), 'serialization'],
    [req(1222), 'timeout'],
    [coded('ETIMEOUT'), 'timeout'],
    [coded('ECANCEL'), 'timeout'],
    [coded('ECONNRESET'), 'connection'],
    [coded('ESOCKET'), 'connection'],
    [req(596, 21), 'connection'],
    [req(2627), 'constraint'],
    [req(547), 'constraint'],
    [req(208), 'other'],
  ] as Array<[unknown, string]>)('%s -> %s', (e, cls) => {
    expect(errorClassOf(classifyError(e).kind)).toBe(cls);
  });
});
