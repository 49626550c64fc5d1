import { describe, expect, it } from 'vitest';
import { countersFromRows, diffStatements, statementDelta } from './statements.js';

describe('countersFromRows', () => {
  it('reads (id, text, calls, total ms) with bigint and string numbers; sums one id; skips rows without an id', () => {
    expect(
      countersFromRows([
        ['1', 'SELECT $1', 10n, '2.5'],
        ['1', 'SELECT $1', 5, 0.5],
        [null, 'x', 1, 1],
        ['2', null, 'n/a', 4],
      ]),
    ).toEqual([
      { id: '1', text: 'SELECT $1', calls: 15, totalMs: 3 },
      { id: '2', text: '', calls: 0, totalMs: 4 },
    ]);
  });
});

describe('statementDelta', () => {
  const before = [
    { id: 'a', text: 'SELECT a', calls: 10, totalMs: 100 },
    { id: 'b', text: 'SELECT b', calls: 5, totalMs: 50 },
    { id: 'r', text: 'SELECT r', calls: 1000, totalMs: 9000 },
  ];
  it('after − before per statement, new statements from zero, a reset counter from its after reading, top N by time', () => {
    const after = [
      { id: 'a', text: 'SELECT   a\n', calls: 30, totalMs: 400 },
      { id: 'b', text: 'SELECT b', calls: 5, totalMs: 50 },
      { id: 'n', text: 'SELECT n', calls: 2, totalMs: 1000 },
      { id: 'r', text: 'SELECT r', calls: 4, totalMs: 8 },
    ];
    expect(statementDelta(before, after, 10)).toEqual([
      { id: 'n', text: 'SELECT n', calls: 2, totalMs: 1000, meanMs: 500 },
      { id: 'a', text: 'SELECT a', calls: 20, totalMs: 300, meanMs: 15 },
      { id: 'r', text: 'SELECT r', calls: 4, totalMs: 8, meanMs: 2 },
    ]);
    expect(statementDelta(before, after, 1).map((s) => s.id)).toEqual(['n']);
  });

  it('never keeps a statement text that can carry a password', () => {
    const after = [{ id: 'p', text: "ALTER ROLE x PASSWORD 'hunter2'", calls: 1, totalMs: 1 }];
    expect(statementDelta([], after, 10)).toEqual([]);
  });
});

describe('diffStatements', () => {
  const s = (id: string, calls: number, meanMs: number) => ({ id, text: `q ${id}`, calls, totalMs: calls * meanMs, meanMs });
  it('lists statements whose mean moved more than the threshold or that ran in one run only, biggest cost first', () => {
    const a = [s('same', 100, 1), s('slower', 100, 1), s('faster', 10, 10), s('gone', 3, 5)];
    const b = [s('same', 100, 1.05), s('slower', 200, 2), s('faster', 10, 5), s('new', 1, 7)];
    expect(diffStatements(a, b, 0.1)).toEqual([
      { id: 'slower', text: 'q slower', callsA: 100, callsB: 200, meanMsA: 1, meanMsB: 2, change: 1 },
      { id: 'faster', text: 'q faster', callsA: 10, callsB: 10, meanMsA: 10, meanMsB: 5, change: -0.5 },
      { id: 'gone', text: 'q gone', callsA: 3, callsB: 0, meanMsA: 5, meanMsB: null, change: null },
      { id: 'new', text: 'q new', callsA: 0, callsB: 1, meanMsA: null, meanMsB: 7, change: null },
    ]);
  });
});
