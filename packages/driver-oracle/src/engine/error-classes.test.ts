import { describe, expect, it } from 'vitest';
import { errorClassOf } from '@sledge/core';
import { classifyError } from './errors.js';

const ora = (code: string) => Object.assign(new Error(`${code}: message`), { code });

describe('Oracle errors -> run error classes', () => {
  it.each([
    ['ORA-00060', 'serialization'],
    ['ORA-08177', 'serialization'],
    ['ORA-00054', 'timeout'],
    ['ORA-01013', 'timeout'],
    ['DPI-1067', 'timeout'],
    ['ORA-03113', 'connection'],
    ['ORA-03114', 'connection'],
    ['ORA-00028', 'connection'],
    ['ORA-01033', 'connection'],
    ['ORA-01089', 'connection'],
    ['ORA-12516', 'connection'],
    ['NJS-500', 'connection'],
    ['ORA-00001', 'constraint'],
    ['ORA-02291', 'constraint'],
    ['ORA-00942', 'other'],
  ])('%s -> %s', (code, cls) => {
    expect(errorClassOf(classifyError(ora(code)).kind)).toBe(cls);
  });
});
