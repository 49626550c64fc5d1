import { describe, expect, it } from 'vitest';
import { SledgeError } from '@sledge/protocol';
import { checkInsertRows, rowBatches, rowsPerStatement } from './insert-rows.js';

describe('insertRows helpers', () => {
  it('refuses an empty table name, no columns and a row of the wrong width, naming the field', () => {
    const err = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return e as SledgeError;
      }
      throw new Error('no error');
    };
    expect(err(() => checkInsertRows(' ', ['a'], [])).field).toBe('table');
    expect(err(() => checkInsertRows('t', [], [])).field).toBe('columns');
    const e = err(() => checkInsertRows('t', ['a', 'b'], [[1, 2], [3]]));
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.field).toBe('rows');
    expect(e.message).toBe('insertRows into t: row 1 has 1 values for 2 columns');
    expect(() => checkInsertRows('t', ['a', 'b'], [[1, null]])).not.toThrow();
    // An engine's name rule sees the table, then each column.
    const seen: string[] = [];
    checkInsertRows('t', ['a', 'b'], [], (n, f) => seen.push(`${f}:${n}`));
    expect(seen).toEqual(['table:t', 'columns:a', 'columns:b']);
    const bad = err(() =>
      checkInsertRows('t', ['a b'], [], (n, f) => {
        if (/\s/.test(n)) throw new SledgeError('SLEDGE_E_VALIDATION', `not an ordinary identifier: ${n}`, { field: f });
      }),
    );
    expect(bad.field).toBe('columns');
  });

  it('fits rows to the parameter limit, capped, at least one', () => {
    expect(rowsPerStatement(4, 65535)).toBe(16383);
    expect(rowsPerStatement(4, 2100, 1000)).toBe(525);
    expect(rowsPerStatement(2, 2100, 1000)).toBe(1000);
    expect(rowsPerStatement(3000, 2100)).toBe(1);
  });

  it('batches rows, the last one short, marking full batches', () => {
    const rows = [1, 2, 3, 4, 5];
    expect([...rowBatches(rows, 2)]).toEqual([
      { rows: [1, 2], full: true },
      { rows: [3, 4], full: true },
      { rows: [5], full: false },
    ]);
    expect([...rowBatches([], 2)]).toEqual([]);
  });
});
