import { describe, expect, it } from 'vitest';
import { parseScript, renderStatement } from '@sledge/core';
import { BUILTIN_SCRIPT_NAMES, builtinScript } from './scripts.js';

const sqlOf = (name: string): string[] =>
  parseScript(name, builtinScript(name)).commands.flatMap((c) => (c.k === 'sql' ? c.statements.map((s) => (s.kind === 'sql' ? renderStatement(s, (n) => `$${n}`) : s.kind)) : [c.k]));

describe('pgbench built-in scripts', () => {
  it('tpcb-like: four \\set, then BEGIN, five statements, END (pgbench documentation)', () => {
    expect(sqlOf('tpcb-like')).toEqual([
      'set', 'set', 'set', 'set', 'begin',
      'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2',
      'SELECT abalance FROM pgbench_accounts WHERE aid = $1',
      'UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2',
      'UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2',
      'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)',
      'commit',
    ]);
  });
  it('simple-update drops the tellers and branches updates; select-only is one read', () => {
    expect(sqlOf('simple-update').filter((s) => s.startsWith('UPDATE'))).toEqual(['UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2']);
    expect(sqlOf('simple-update')).toContain('INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)');
    expect(sqlOf('select-only')).toEqual(['set', 'SELECT abalance FROM pgbench_accounts WHERE aid = $1']);
  });
  it('every name has a file; an unknown name is refused', () => {
    for (const n of BUILTIN_SCRIPT_NAMES) expect(builtinScript(n).length).toBeGreaterThan(0);
    expect(() => builtinScript('tpcc')).toThrow('no built-in script "tpcc": built-in scripts are tpcb-like, simple-update, select-only');
    expect(() => builtinScript('../builtin/tpcb-like')).toThrow(/no built-in script/);
  });
});
