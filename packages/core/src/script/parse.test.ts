import { describe, expect, it } from 'vitest';
import { parseScript, renderStatement, type SqlStatement } from './parse.js';
import { ScriptClient, type ScriptIo, type ScriptRow } from './client.js';
import { scriptRandom } from './random.js';
import { ScriptSyntaxError } from './errors.js';
import type { BindValue } from './values.js';

const dollar = (n: number): string => `$${n}`;

describe('pgbench scripts: SQL commands', () => {
  it('multi-line commands end at ";", variables become parameters, casts and quotes stay', () => {
    const s = parseScript('a.sql', [
      '-- a comment line',
      'UPDATE t',
      '   SET v = v + :delta   -- why',
      ' WHERE id = :id AND s = \':not_a_var\' AND d = $$ :nor; this $$ AND c = x::int;',
      'SELECT "col:x", :id FROM t /* :skip; */ WHERE a[1:2] = 1',
    ].join('\n'));
    expect(s.commands.map((c) => [c.k, c.line])).toEqual([['sql', 2], ['sql', 5]]);
    const c0 = s.commands[0]!;
    if (c0.k !== 'sql') throw new Error();
    const st = c0.statements[0]!;
    expect(st.kind).toBe('sql');
    expect(st.vars).toEqual(['delta', 'id']);
    expect(renderStatement(st, dollar)).toBe("UPDATE t\n   SET v = v + $1   -- why\n WHERE id = $2 AND s = ':not_a_var' AND d = $$ :nor; this $$ AND c = x::int");
    expect(renderStatement(st, () => '?')).toContain('SET v = v + ?');
    const c1 = s.commands[1]!;
    if (c1.k !== 'sql') throw new Error();
    expect(c1.statements[0]!.vars).toEqual(['id']);
    expect(renderStatement(c1.statements[0]!, dollar)).toBe('SELECT "col:x", $1 FROM t /* :skip; */ WHERE a[1:2] = 1');
  });
  it('recognises transaction control, not statements that only start like it', () => {
    const s = parseScript('tx', 'BEGIN;\nstart transaction;\nEND;\ncommit work;\nROLLBACK;\nabort;\nBEGIN ISOLATION LEVEL SERIALIZABLE;\n');
    const kinds = s.commands.map((c) => (c.k === 'sql' ? c.statements[0]!.kind : c.k));
    expect(kinds).toEqual(['begin', 'begin', 'commit', 'commit', 'rollback', 'rollback', 'sql']);
  });
  it('\\; joins statements; \\gset and \\aset end a command with an optional prefix', () => {
    const s = parseScript('g', 'SELECT 1 AS one \\; SELECT 2 AS two, 3 AS three \\gset p_\nSELECT :p_two AS x\n\\aset\n');
    const [a, b] = s.commands;
    if (a?.k !== 'sql' || b?.k !== 'sql') throw new Error();
    expect(a.statements.length).toBe(2);
    expect(a.store).toEqual({ mode: 'gset', prefix: 'p_' });
    expect(b.store).toEqual({ mode: 'aset', prefix: '' });
  });
  it('a last command without ";" is a command', () => {
    const s = parseScript('x', 'SELECT 1');
    expect(s.commands.length).toBe(1);
  });
});

describe('pgbench scripts: meta-commands', () => {
  it('\\set, \\sleep with units and variables, continuation lines', () => {
    const s = parseScript('m', '\\set a random(1, \\\n  10)\n\\sleep 5 ms\n\\sleep :a us\n\\sleep 2\n');
    expect(s.commands.map((c) => c.k)).toEqual(['set', 'sleep', 'sleep', 'sleep']);
    expect(s.commands[1]).toMatchObject({ arg: { v: 5 }, unit: 'ms' });
    expect(s.commands[2]).toMatchObject({ arg: { name: 'a' }, unit: 'us' });
    expect(s.commands[3]).toMatchObject({ arg: { v: 2 }, unit: 's' });
  });
  it('\\if/\\elif/\\else/\\endif nest and link', () => {
    const s = parseScript('i', '\\if :a = 1\nSELECT 1;\n\\elif :a = 2\n\\if true\nSELECT 2;\n\\endif\n\\else\nSELECT 3;\n\\endif\n');
    expect(s.commands.map((c) => c.k)).toEqual(['if', 'sql', 'elif', 'if', 'sql', 'endif', 'else', 'sql', 'endif']);
    expect(s.commands[0]).toMatchObject({ next: 2, end: 8 });
    expect(s.commands[2]).toMatchObject({ next: 6, end: 8 });
    expect(s.commands[3]).toMatchObject({ next: 5, end: 5 });
    expect(s.commands[6]).toMatchObject({ end: 8 });
  });
  it('pipelines are parsed and flagged for the engine check', () => {
    const s = parseScript('p', '\\startpipeline\nSELECT 1;\n\\endpipeline\n');
    expect(s.features.pipeline).toBe(true);
    expect(parseScript('q', 'SELECT 1;').features.pipeline).toBe(false);
  });
  it('\\syncpipeline (pgbench 17) is a command of its own inside a pipeline', () => {
    const s = parseScript('p', '\\startpipeline\nSELECT 1;\n\\syncpipeline\nSELECT 2;\n\\syncpipeline\n\\endpipeline\n');
    expect(s.commands.map((c) => (c.k === 'pipeline' ? `${c.op}@${c.line}` : c.k))).toEqual(['start@1', 'sql', 'sync@3', 'sql', 'sync@5', 'end@6']);
    expect(s.features.pipeline).toBe(true);
  });
});

describe('pgbench scripts: errors name the script, line and column', () => {
  const err = (text: string): ScriptSyntaxError => {
    try { parseScript('bad.sql', text, { field: 'script.scripts[2].text' }); } catch (e) { return e as ScriptSyntaxError; }
    throw new Error('no error');
  };
  const cases: [string, string][] = [
    ['SELECT 1;\n  \\setshell x echo 1\n', 'bad.sql:2:3: \\setshell runs a shell command on the client; Sledge does not run shell commands from scripts (compute the value with \\set)'],
    ['\\shell ls\n', 'bad.sql:1:1: \\shell runs a shell command on the client; Sledge does not run shell commands from scripts (compute the value with \\set)'],
    ['\\frob 1\n', 'bad.sql:1:1: unknown meta-command \\frob'],
    ['\\set\n', 'bad.sql:1:5: \\set needs a variable name and an expression'],
    ['\\set 1x 2\n', 'bad.sql:1:6: invalid variable name "1x"'],
    ['\\set x\n', 'bad.sql:1:7: \\set x needs an expression'],
    ['\\sleep\n', 'bad.sql:1:7: \\sleep needs a duration'],
    ['\\sleep 10 min\n', 'bad.sql:1:11: unknown \\sleep unit "min" (us, ms or s)'],
    ['\\sleep 1.5\n', 'bad.sql:1:8: \\sleep duration must be an integer or a :variable, not "1.5"'],
    ['\\if true\nSELECT 1;\n', 'bad.sql:1:1: \\if without a matching \\endif'],
    ['SELECT 1;\n\\endif\n', 'bad.sql:2:1: \\endif without a matching \\if'],
    ['\\else\n', 'bad.sql:1:1: \\else without a matching \\if'],
    ['\\if true\n\\else\n\\elif false\n\\endif\n', 'bad.sql:3:1: \\elif after \\else'],
    ['\\if true\n\\else\n\\else\n\\endif\n', 'bad.sql:3:1: \\else after \\else'],
    ['\\if\n\\endif', 'bad.sql:1:4: \\if needs an expression'],
    ['\\endif x\n', 'bad.sql:1:8: \\endif takes no arguments'],
    ['\\gset\n', 'bad.sql:1:1: \\gset must follow an SQL command'],
    ['SELECT 1 \\gset a b\n', 'bad.sql:1:18: \\gset takes at most one argument (a variable prefix)'],
    ["SELECT 'abc;\n", 'bad.sql:1:8: unterminated quoted string'],
    ['SELECT 1\n\\set x 1\n', 'bad.sql:2:1: meta-command \\set inside an SQL command: end the command with ";" first'],
    ['\\endpipeline\n', 'bad.sql:1:1: \\endpipeline without \\startpipeline'],
    ['\\startpipeline\n', 'bad.sql:1:1: \\startpipeline without a matching \\endpipeline'],
    ['\\startpipeline\nSELECT 1 \\gset\n\\endpipeline\n', 'bad.sql:2:10: \\gset is not allowed in a pipeline'],
    ['\\startpipeline\nSELECT 1;\n\\aset p\n\\endpipeline\n', 'bad.sql:3:1: \\aset is not allowed in a pipeline'],
    ['\\syncpipeline\n', 'bad.sql:1:1: \\syncpipeline outside a pipeline: put it between \\startpipeline and \\endpipeline'],
    ['\\startpipeline\nSELECT 1;\n\\endpipeline\nSELECT 2;\n  \\syncpipeline\n', 'bad.sql:5:3: \\syncpipeline outside a pipeline: put it between \\startpipeline and \\endpipeline'],
    ['\\startpipeline\n\\syncpipeline now\n\\endpipeline\n', 'bad.sql:2:15: \\syncpipeline takes no arguments'],
    ['\\startpipeline\n\\syncpipeline\n', 'bad.sql:1:1: \\startpipeline without a matching \\endpipeline'],
  ];
  it.each(cases)('%j', (text, message) => {
    const e = err(text);
    expect(e).toBeInstanceOf(ScriptSyntaxError);
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.field).toBe('script.scripts[2].text');
    expect(e.message).toBe(message);
  });
});

/** An in-memory session: records what the client sends, answers SELECTs from `answers`. */
class RecordingIo implements ScriptIo {
  readonly log: string[] = [];
  slept = 0;
  constructor(private readonly answers: Record<string, ScriptRow[]> = {}, private readonly failOn?: string) {}
  async query(st: SqlStatement, params: BindValue[]): Promise<ScriptRow[]> {
    const sql = renderStatement(st, dollar);
    this.log.push(`${sql} ${JSON.stringify(params)}`);
    if (this.failOn && sql.includes(this.failOn)) throw new Error('deadlock detected');
    return this.answers[sql] ?? [];
  }
  async begin(): Promise<void> { this.log.push('BEGIN'); }
  async commit(): Promise<void> { this.log.push('COMMIT'); }
  async rollback(): Promise<void> { this.log.push('ROLLBACK'); }
  async sleep(ms: number): Promise<void> { this.slept += ms; }
  debug(line: string): void { this.log.push(`debug ${line}`); }
}

const client = (clientId = 0, scale = 3): ScriptClient => new ScriptClient(scriptRandom(11), { clientId, scale, defaultSeed: 5n, randomSeed: 11n });

describe('running a script', () => {
  it('binds variables, runs transaction control the engine way, keeps :scale and :client_id', async () => {
    const s = parseScript('r', '\\set aid random(1, 100000 * :scale)\n\\set c :client_id + 100\nBEGIN;\nUPDATE a SET b = b + 1 WHERE aid = :aid AND c = :c;\nEND;\n');
    const io = new RecordingIo();
    const c = client(4, 3);
    await c.run(s, io);
    const aid = Number(c.vars.get('aid'));
    expect(aid).toBeGreaterThanOrEqual(1);
    expect(aid).toBeLessThanOrEqual(300000);
    expect(io.log).toEqual(['BEGIN', `UPDATE a SET b = b + 1 WHERE aid = $1 AND c = $2 [${aid},104]`, 'COMMIT']);
  });
  it('\\gset needs exactly one row; \\aset keeps the last row and sets nothing on none', async () => {
    const s = parseScript('g', 'SELECT 2 AS two, 3 AS three \\gset p_\n\\set s :p_two + :p_three\nSELECT x FROM t \\aset\nSELECT y FROM t \\aset\n');
    const io = new RecordingIo({ 'SELECT 2 AS two, 3 AS three': [{ two: 2, three: '3' }], 'SELECT x FROM t': [{ x: 1 }, { x: 9 }] });
    const c = client();
    await c.run(s, io);
    expect(c.vars.get('s')).toBe(5n);
    expect(c.vars.get('x')).toBe(9n);
    expect(c.vars.has('y')).toBe(false);
    const none = parseScript('n', 'SELECT 1 AS one WHERE false \\gset\n');
    await expect(client().run(none, new RecordingIo())).rejects.toThrow('n:1: \\gset expects one row, the query returned 0');
  });
  it('\\if takes the first true branch only and evaluates each condition once', async () => {
    const text = '\\if :a = 1\nSELECT 1;\n\\elif :a = 2\nSELECT 2;\n\\elif :a >= 2\nSELECT 22;\n\\else\nSELECT 3;\n\\endif\nSELECT 4;\n';
    const s = parseScript('i', text);
    for (const [a, want] of [[1, ['SELECT 1 []', 'SELECT 4 []']], [2, ['SELECT 2 []', 'SELECT 4 []']], [5, ['SELECT 22 []', 'SELECT 4 []']], [0, ['SELECT 3 []', 'SELECT 4 []']]] as const) {
      const io = new RecordingIo();
      const c = client();
      c.vars.set('a', BigInt(a));
      await c.run(s, io);
      expect(io.log).toEqual(want);
    }
  });
  it('\\sleep in us, ms, s and from a variable', async () => {
    const s = parseScript('s', '\\set t 250\n\\sleep :t us\n\\sleep 3 ms\n\\sleep 1\n');
    const io = new RecordingIo();
    await client().run(s, io);
    expect(io.slept).toBeCloseTo(0.25 + 3 + 1000, 9);
  });
  it('a failing statement rolls the open transaction back and throws', async () => {
    const s = parseScript('f', 'BEGIN;\nUPDATE a SET x = 1;\nUPDATE b SET y = 2;\nEND;\n');
    const io = new RecordingIo({}, 'UPDATE b');
    await expect(client().run(s, io)).rejects.toThrow('deadlock detected');
    expect(io.log).toEqual(['BEGIN', 'UPDATE a SET x = 1 []', 'UPDATE b SET y = 2 []', 'ROLLBACK']);
  });
  it('an undefined variable in SQL is a runtime error naming it', async () => {
    const s = parseScript('u', 'SELECT :missing;\n');
    await expect(client().run(s, new RecordingIo())).rejects.toThrow('u:1: undefined variable "missing"');
  });
  it('debug() lines go to the session log', async () => {
    const io = new RecordingIo();
    await client().run(parseScript('d', '\\set x debug(2 * 21)\n'), io);
    expect(io.log).toEqual(['debug d:1: debug(int): 42']);
  });
});
