import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterp } from '@sledge/tcl';
import { describe, expect, it } from 'vitest';
import { PYTHON_DIR } from '../src/hammerdb/python.js';
import { registerVerbs, VERBS } from '../src/hammerdb/verbs.js';
import type { SledgeClient } from '../src/client.js';
import { hammerdb, sharedServer } from './hammerdb-harness.js';

/**
 * `sledge hammerdb script.py`: HammerDB's Python CLI conventions (verbs as
 * global functions whose arguments are joined into the Tcl command, print as
 * the verb or Python's print, tclpy.eval in the session's Tcl interpreter),
 * what stops a script (tracebacks, exit codes), stdin, and a missing python3.
 */
const server = sharedServer();
const py = { name: 'script.py' };
const main = new URL('../dist/main.js', import.meta.url).pathname;

describe('sledge hammerdb: HammerDB Python scripts', () => {
  it('every command a Tcl script has (verbs, print, job, quit, help ...) is a function of the hammerdb module', () => {
    const names: string[] = [];
    const interp = createInterp({});
    const register = interp.register.bind(interp);
    interp.register = (name, fn) => {
      names.push(name);
      register(name, fn);
    };
    registerVerbs(interp, { client: {} as SledgeClient, out: () => undefined, flush: async () => undefined });
    // The Tcl helpers HammerDB's Python mode reaches through tclpy.eval, as its own scripts do.
    const viaTclpy = ['numberOfCPUs', 'numberOfWHs'];
    const expected = [...new Set(names)].filter((n) => !viaTclpy.includes(n)).sort();
    expect(expected).toEqual(expect.arrayContaining(Object.keys(VERBS)));
    const r = spawnSync('python3', ['-c', 'import hammerdb, json; print(json.dumps(sorted(n for n in hammerdb.__all__ if callable(getattr(hammerdb, n)))))'], { env: { ...process.env, PYTHONPATH: PYTHON_DIR }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const exposed = JSON.parse(r.stdout) as string[];
    expect(expected.filter((n) => !exposed.includes(n))).toEqual([]);
  });

  it('arguments are joined into the Tcl command as HammerDB does (str() of numbers, spaces trimmed by Tcl); Python print and the verbs\' lines keep the script\'s order', async () => {
    const r = await hammerdb(
      `print("SETTING CONFIGURATION")
dbset('db','pg')
diset(' tpcc','pg_defaultdbase',' postgres')
diset('tpcc','pg_count_ware',4)
diset('tpcc','pg_duration',0.5)
vuset('vu',3)
print('vuconf')
print(1, "VU TEST", sep="-")
print('bm', 'x')
print('not a verb option')
`,
      server.flags,
      false,
      py,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^SETTING CONFIGURATION\nDatabase set to PostgreSQL\n/);
    expect(r.out).toContain('Value postgres for tpcc:pg_defaultdbase is the same as existing value postgres, no change made\n');
    expect(r.out).toContain('Changed tpcc:pg_count_ware from 1 to 4 for PostgreSQL\nChanged tpcc:pg_duration from 5 to 0.5 for PostgreSQL\nVirtual Users = 3\n');
    expect(r.out).toMatch(/\n1-VU TEST\nUsage: print \[db\|bm\|[^\n]*\]\nnot a verb option\n$/);
  });

  it('tclpy.eval runs Tcl in the session\'s interpreter: procs and variables persist between calls, results come back as str', async () => {
    const r = await hammerdb(
      `tclpy.eval('proc twice { x } { expr { $x * 2 } }')
tclpy.eval('set ::seen 0')
for i in range(3):
    tclpy.eval('incr ::seen')
print(tclpy.eval('twice 21'), type(tclpy.eval('twice 1')).__name__, tclpy.eval('set ::seen'))
print(int(tclpy.eval('numberOfWHs')) > 0, tclpy.eval('vucomplete'), vucomplete())
print(jobs('profileid'))
`,
      server.flags,
      false,
      py,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^42 str 3\nTrue false False\n/);
  });

  it('an uncaught Tcl error (an unsupported verb) is a Python exception: traceback naming the script line, exit code 1, nothing after it runs', async () => {
    const r = await hammerdb("dbset('db','pg')\n\nwsstart()\nprint('never')\n", server.flags, false, py);
    expect(r.code).toBe(1);
    expect(r.out).toBe('Database set to PostgreSQL\n');
    expect(r.err).toMatch(/^Traceback \(most recent call last\):\n {2}File "[^"]*script\.py", line 3, in <module>\n/);
    expect(r.err).toMatch(/tclpy\.TclException: "wsstart" is a HammerDB command that sledge hammerdb does not support: Sledge's server is the web service[^\n]*\n$/);
  });

  it('a script can catch a Tcl error as an exception and go on', async () => {
    const r = await hammerdb("try:\n    tclpy.eval('nosuchcommand 1')\nexcept tclpy.TclException as e:\n    print('caught:', e)\nprint('after')\n", server.flags, false, py);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('caught: invalid command name "nosuchcommand"\nafter\n');
  });

  it('a Python error prints its traceback (exit 1); a syntax error runs nothing; exit(N), sys.exit(N) and Tcl exit N set the code; quit() says so', async () => {
    const zero = await hammerdb("print('a')\nx = 1 / 0\n", server.flags, false, py);
    expect([zero.code, zero.out]).toEqual([1, 'a\n']);
    expect(zero.err).toMatch(/line 2, in <module>\n[\s\S]*ZeroDivisionError: division by zero\n$/);
    const syntax = await hammerdb("print('a')\ndbset('db',\n", server.flags, false, py);
    expect([syntax.code, syntax.out]).toEqual([1, '']);
    expect(syntax.err).toMatch(/SyntaxError/);
    expect((await hammerdb("exit(4)\nprint('never')\n", server.flags, false, py)).code).toBe(4);
    expect((await hammerdb("import sys\nsys.exit(5)\n", server.flags, false, py)).code).toBe(5);
    expect((await hammerdb("tclpy.eval('exit 6')\n", server.flags, false, py)).code).toBe(6);
    const q = await hammerdb("print('bye')\nquit()\nprint('never')\n", server.flags, false, py);
    expect([q.code, q.out]).toEqual([0, 'bye\nShutting down HammerDB CLI\n']);
  });

  it('--py reads the script from stdin; --py refuses a .tcl file as HammerDB does, and runs nothing', async () => {
    const r = await hammerdb("dbset('db','maria')\nprint('bm')\n", [...server.flags, '--py'], true);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('Database set to MariaDB\nBenchmark set to TPC-C\n');
    const dir = mkdtempSync(join(tmpdir(), 'sledge-hdb-py-'));
    writeFileSync(join(dir, 'x.tcl'), 'puts hello\n');
    const wrong = spawnSync(process.execPath, [main, 'hammerdb', '--py', join(dir, 'x.tcl'), ...server.flags], { encoding: 'utf8' });
    expect([wrong.status, wrong.stdout]).toEqual([2, '']);
    expect(wrong.stderr).toContain('incorrect file extension for python');
  });

  it('with no python3 on PATH it says what to install and runs nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sledge-hdb-py-'));
    writeFileSync(join(dir, 'x.py'), "print('hello')\n");
    const r = spawnSync(process.execPath, [main, 'hammerdb', join(dir, 'x.py'), ...server.flags], { encoding: 'utf8', env: { ...process.env, PATH: dir } });
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('there is no python3 on PATH: install it (Debian/Ubuntu: apt-get install python3');
  });
});
