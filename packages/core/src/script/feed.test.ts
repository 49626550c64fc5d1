import { describe, expect, it } from 'vitest';
import type { ScriptIo } from './client.js';
import { notFeedable, ScriptFeedPlan, type ScriptFeedSink } from './feed.js';
import { parseScript, renderStatement, type Script } from './parse.js';
import { ScriptVuClient } from './workload.js';

/** pgbench's built-in scripts as its documentation gives them (packages/sql/script/builtin/ holds the ones jobs run; core reads no files). */
const SETS = '\\set aid random(1, 100000 * :scale)\n\\set bid random(1, 1 * :scale)\n\\set tid random(1, 10 * :scale)\n\\set delta random(-5000, 5000)\n';
const SELECT = 'SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n';
const UPDATE_A = 'UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n';
const HISTORY = 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n';
const BUILTIN: Record<string, string> = {
  'tpcb-like': `${SETS}BEGIN;\n${UPDATE_A}${SELECT}UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\nUPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n${HISTORY}END;\n`,
  'simple-update': `${SETS}BEGIN;\n${UPDATE_A}${SELECT}${HISTORY}END;\n`,
  'select-only': `\\set aid random(1, 100000 * :scale)\n${SELECT}`,
};
const builtin = (name: string): Script => parseScript(name, BUILTIN[name]!);

/** What run() does against a database that always succeeds, as lines; a thrown script error as `error <message>` (after the rollback run() sends). */
function ioLog(log: string[]): ScriptIo {
  const text = (st: Parameters<ScriptIo['query']>[0]) => renderStatement(st, (n) => `$${n}`);
  return {
    query: async (st, params) => { log.push(`query ${text(st)} [${params.map((p) => (p === null ? 'NULL' : String(p))).join(',')}]`); return []; },
    begin: async () => { log.push('begin'); },
    commit: async () => { log.push('commit'); },
    rollback: async () => { log.push('rollback'); },
    sleep: async () => { throw new Error('no sleep here'); },
    debug: () => undefined,
  };
}

/** The same lines from runAhead's sink, with the rollback the native loop sends after an error in an open transaction. */
function sinkLog(plan: ScriptFeedPlan, log: string[]): { sink: ScriptFeedSink; inTx: () => boolean } {
  let open = false;
  return {
    sink: {
      sql: (i, params) => { log.push(`query ${plan.statements[i]} [${params.map((p) => p ?? 'NULL').join(',')}]`); },
      control: (k) => { log.push(k); open = k === 'begin'; },
    },
    inTx: () => open,
  };
}

async function both(scripts: Script[], txs: number, seed = 7): Promise<{ run: string[]; ahead: string[] }> {
  const plan = new ScriptFeedPlan(scripts, (n) => `$${n}`);
  const a = new ScriptVuClient(3);
  const b = new ScriptVuClient(3);
  const run: string[] = [];
  const ahead: string[] = [];
  const io = ioLog(run);
  for (let n = 0; n < txs; n++) {
    const script = scripts[n % scripts.length]!;
    const input = { seed: seed * 1000 + n, jobSeed: seed, scale: 4 };
    try {
      await a.for(input).run(script, io);
    } catch (e) {
      run.push(`error ${(e as Error).message}`);
    }
    const { sink, inTx } = sinkLog(plan, ahead);
    const err = b.for(input).runAhead(script, plan, sink, () => undefined);
    if (err !== undefined) {
      if (inTx()) ahead.push('rollback');
      ahead.push(`error ${err}`);
    }
  }
  return { run, ahead };
}

describe('evaluating scripts ahead (the native loop feed)', () => {
  it("gives pgbench's built-in scripts the statements and parameters run() sends, transaction after transaction", async () => {
    const { run, ahead } = await both(['tpcb-like', 'simple-update', 'select-only'].map(builtin), 300);
    expect(run.length).toBeGreaterThan(1000);
    expect(ahead).toEqual(run);
    expect(run).toContain('begin');
  });

  it('follows \\if/\\elif/\\else, keeps variables from one transaction to the next, and sends NULL, doubles and big integers as run() binds them', async () => {
    const s = parseScript('branchy', [
      '\\set n random(1, 3)',
      '\\if :n = 1',
      '\\set v 9223372036854775807',
      '\\elif :n = 2',
      '\\set v 2.5 * :n',
      '\\else',
      '\\set v null',
      '\\endif',
      '\\set total debug(:n) + 0',
      'SELECT :v, :n, :client_id, :scale;',
      '',
    ].join('\n'));
    const { run, ahead } = await both([s], 60);
    expect(ahead).toEqual(run);
    expect(new Set(run.map((l) => l.replace(/\[.*/, '')))).toEqual(new Set(['query SELECT $1, $2, $3, $4 ']));
    expect(run.some((l) => l.includes('[9223372036854775807,1,3,4]'))).toBe(true);
    expect(run.some((l) => l.includes('[5,2,3,4]'))).toBe(true);
    expect(run.some((l) => l.includes('[NULL,3,3,4]'))).toBe(true);
  });

  it("reports the interpreter's error after the statements that ran before it, and a script that ends inside its transaction, as run() throws them", async () => {
    const s = parseScript('fails', 'BEGIN;\nUPDATE t SET v = 1 WHERE k = :client_id;\n\\set x 1 / (:client_id - 3)\nEND;\n');
    const open = parseScript('open', 'BEGIN;\nSELECT 1;\n');
    const { run, ahead } = await both([s, open], 4);
    expect(ahead).toEqual(run);
    expect(run.slice(0, 4)).toEqual(['begin', 'query UPDATE t SET v = 1 WHERE k = $1 [3]', 'rollback', expect.stringMatching(/^error fails:3: .*division by zero/)]);
    expect(run.slice(4, 8)).toEqual(['begin', 'query SELECT 1 []', 'rollback', 'error open:2: the script ended inside a transaction (BEGIN without COMMIT/END)']);
  });

  it('accepts \\set, \\if and SQL only: \\gset, \\aset, \\sleep and pipelines read the database or wait', () => {
    expect(notFeedable(builtin('tpcb-like'))).toBeUndefined();
    expect(notFeedable(parseScript('g', 'SELECT 1 AS one \\gset\n'))).toBe('g:1: \\gset reads the database into variables');
    expect(notFeedable(parseScript('a', 'SELECT 1 AS one \\aset\n'))).toBe('a:1: \\aset reads the database into variables');
    expect(notFeedable(parseScript('s', 'SELECT 1;\n\\sleep 1 ms\n'))).toBe('s:2: \\sleep');
    expect(notFeedable(parseScript('p', '\\startpipeline\nSELECT 1;\n\\endpipeline\n'))).toBe('p:1: a pipeline');
  });

  it('numbers each SQL text once across scripts, in the engine placeholders', () => {
    const plan = new ScriptFeedPlan([builtin('tpcb-like'), builtin('select-only')], (n) => `?${n}`);
    expect(plan.statements).toHaveLength(5); // select-only's SELECT is tpcb-like's
    expect(plan.statements[0]).toMatch(/^UPDATE pgbench_accounts SET abalance = abalance \+ \?1 WHERE aid = \?2/);
    expect(plan.statements.some((t) => /\$|:aid/.test(t))).toBe(false);
  });
});
