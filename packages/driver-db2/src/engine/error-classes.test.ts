import { describe, expect, it } from 'vitest';
import { errorClassOf } from '@sledge/core';
import { classifyError } from './errors.js';

const db2 = (sqlcode: number, sqlstate: string, message: string) => Object.assign(new Error(message), { sqlcode, sqlstate });

describe('Db2 errors -> run error classes', () => {
  it.each([
    [db2(-911, '40001', 'SQL0911N  The current transaction has been rolled back because of a deadlock or timeout.  Reason code "2".'), 'serialization'],
    [db2(-911, '40001', 'SQL0911N  The current transaction has been rolled back because of a deadlock or timeout.  Reason code "68".'), 'timeout'],
    [db2(-952, '57014', 'SQL0952N  Processing was cancelled due to an interrupt.'), 'timeout'],
    [db2(-4725, '57014', 'SQL4725N  The activity has been cancelled.'), 'timeout'],
    [db2(-30081, '08001', 'SQL30081N  A communication error has been detected.'), 'connection'],
    [db2(-1224, '55032', 'SQL1224N  The database manager is not able to accept new requests.'), 'connection'],
    [db2(-1032, '57019', 'SQL1032N  No start database manager command was issued.'), 'connection'],
    [db2(-99999, '08003', 'connection does not exist'), 'connection'],
    [db2(-803, '23505', 'SQL0803N  One or more values in the INSERT statement are not valid.'), 'constraint'],
    [db2(-530, '23503', 'SQL0530N  The INSERT or UPDATE value of the FOREIGN KEY is not equal.'), 'constraint'],
    [db2(-204, '42704', 'SQL0204N  "X" is an undefined name.'), 'other'],
  ] as Array<[unknown, string]>)('%#: %s', (e, cls) => {
    expect(errorClassOf(classifyError(e).kind)).toBe(cls);
  });
});
