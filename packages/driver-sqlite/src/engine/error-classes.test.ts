import { describe, expect, it } from 'vitest';
import { errorClassOf } from '@sledge/core';
import { classifyError } from './errors.js';

const lite = (code: string) => Object.assign(new Error(code), { code });

describe('SQLite errors -> run error classes', () => {
  it.each([
    ['SQLITE_BUSY', 'timeout'],
    ['SQLITE_BUSY_SNAPSHOT', 'timeout'],
    ['SQLITE_LOCKED', 'timeout'],
    ['SQLITE_CANTOPEN', 'connection'],
    ['SQLITE_NOTADB', 'connection'],
    ['SQLITE_CONSTRAINT_PRIMARYKEY', 'constraint'],
    ['SQLITE_CONSTRAINT_FOREIGNKEY', 'constraint'],
    ['SQLITE_ERROR', 'other'],
  ])('%s -> %s', (code, cls) => {
    expect(errorClassOf(classifyError(lite(code)).kind)).toBe(cls);
  });

  it('a closed database is a lost connection', () => {
    expect(errorClassOf(classifyError(new Error('The database connection is not open')).kind)).toBe('connection');
  });
});
