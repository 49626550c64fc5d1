import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hammerdb, sharedServer } from './hammerdb-harness.js';

/** What stops a script, what does not, stdin, and verbs forwarded to routes other branches add. */
const server = sharedServer();

describe('sledge hammerdb: what stops a script', () => {
  it('an unknown command stops it with Tcl\'s message, the command and its line on stderr; exit code 1', async () => {
    const r = await hammerdb('puts before\ndbset db pg\n\nfoo bar\nputs after\n', server.flags);
    expect(r.code).toBe(1);
    expect(r.out).toBe('before\nDatabase set to PostgreSQL\n');
    expect(r.err).toBe('invalid command name "foo"\n    while executing\n"foo bar"\n    (file "' + r.err.split('(file "')[1]!.split('"')[0] + '" line 4)\n');
  });

  it('an unsupported HammerDB verb stops it saying why and where', async () => {
    const r = await hammerdb('dbset db pg\nwsstart\nputs after\n', server.flags);
    expect(r.code).toBe(1);
    expect(r.err).toContain('"wsstart" is a HammerDB command that sledge hammerdb does not support: Sledge\'s server is the web service');
    expect(r.err).toMatch(/line 2\)\n$/);
  });

  it('an error reply is printed and the script goes on, as in HammerDB\'s CLI; exit sets the code', async () => {
    const r = await hammerdb('dbset db pg\ndbset db nosuch\ndiset tpcc nosuch_key 1\ndiset tpcc\nvuset vu\nprint nothing\nputs "still here"\nexit 3\nputs never\n', server.flags);
    expect(r.code).toBe(3);
    expect(r.out).toBe(
      'Database set to PostgreSQL\n' +
        'Unknown prefix nosuch, choose one from ora mssqls db2 mysql pg maria sqlite\n' +
        'Dictionary "tpcc" for PostgreSQL exists but key "nosuch_key" doesn\'t\n' +
        'Error: Invalid number of arguments\nUsage: diset dict key value\n' +
        'Usage: vuset [vu|delay|repeat|iterations|showoutput|logtotemp|unique|nobuff|timestamps] value\n' +
        'Error: invalid option\nUsage: print [db|bm|dict|generic|script|vuconf|vucreated|vustatus|vucomplete|datagen|tcconf]\n' +
        'still here\n',
    );
  });

  it('reads the script from stdin with "-"; print and vustatus print text as the CLI does; passwords stay masked', async () => {
    const r = await hammerdb('dbset db pg\ndiset tpcc pg_pass s3cret-Pw\nprint bm\nprint vucreated\nvustatus\nputs [vucomplete]\nprint dict\n', server.flags, true);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Changed tpcc:pg_pass from ******** to ******** for PostgreSQL\nBenchmark set to TPC-C\n0 Virtual Users created\nNo Virtual Users found\nfalse\nDictionary Settings for PostgreSQL\nconnection {\n pg_host');
    expect(r.out).toMatch(/^ pg_pass += \*{8}$/m);
    expect(r.out).not.toContain('s3cret-Pw');
  });

  it('a script file that cannot be read, and an unreachable server, say what to fix', async () => {
    const { spawnSync } = await import('node:child_process');
    const main = new URL('../dist/main.js', import.meta.url).pathname;
    const missing = spawnSync(process.execPath, [main, 'hammerdb', '/nonexistent/x.tcl', ...server.flags], { encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read the script /nonexistent/x.tcl: no such file');
    const down = spawnSync(process.execPath, [main, 'hammerdb', '-', '--server', 'http://127.0.0.1:1'], { encoding: 'utf8', input: 'dbset db pg\n' });
    expect(down.status).toBe(2);
    expect(down.stderr).toContain('cannot reach the Sledge server at http://127.0.0.1:1');
  });
});

describe('verbs forwarded to routes of other branches (ws, v6): the request they send and what they print', () => {
  let stub: Server;
  let url = '';
  const seen: { method: string; path: string; body: string }[] = [];
  const read = (req: IncomingMessage) => new Promise<string>((res) => {
    let b = '';
    req.on('data', (d: Buffer) => (b += d));
    req.on('end', () => res(b));
  });
  beforeAll(async () => {
    stub = createServer(async (req, res) => {
      const body = await read(req);
      seen.push({ method: req.method!, path: req.url!, body });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/jobscmd') {
        const args = (JSON.parse(body) as { args: string[] }).args;
        res.end(JSON.stringify(args[0] === 'bad' ? { error: { message: 'Usage: jobs [jobid|joblist|result|timestamp|format|profileid|diff]' } } : { output: ['line one', 'line two'], value: `value of ${args.join(' ')}` }));
      } else if (req.url === '/steprun') {
        res.statusCode = 404;
        res.end(JSON.stringify({ message: 'Route POST:/steprun not found', error: 'Not Found', statusCode: 404 }));
      } else if (req.url === '/metstatus') res.end(JSON.stringify({ success: { message: 'Metrics not running' } }));
      else res.end(JSON.stringify({ success: { message: `ok ${req.url}` } }));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => stub.close(() => r())));

  it('jobs (and its alias job) POST /jobscmd {"args": [...]}, print its output lines and return its value', async () => {
    const r = await hammerdb('set v [ jobs diff 1 2 true ]\nputs "returned: $v"\njob ABC result\njobs bad\n', ['--server', url]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('line one\nline two\nreturned: value of diff 1 2 true\nline one\nline two\nUsage: jobs [jobid|joblist|result|timestamp|format|profileid|diff]\n');
    expect(seen.filter((s) => s.path === '/jobscmd').map((s) => JSON.parse(s.body))).toEqual([{ args: ['diff', '1', '2', 'true'] }, { args: ['ABC', 'result'] }, { args: ['bad'] }]);
  });

  it('verbs print through the script\'s puts: a script that redefines puts (to log to a file) gets their lines', async () => {
    const r = await hammerdb('rename puts __puts\nproc puts {args} { global captured; lappend captured [lindex $args end] }\njobs diff 1 2 true\nrename puts {}\nrename __puts puts\nputs "captured: $captured"\n', ['--server', url]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('captured: {line one} {line two}\n');
  });

  it('giset, metset, metstart, metstatus, switchmode, custommonitor, savescript send HammerDB\'s bodies', async () => {
    seen.length = 0;
    const r = await hammerdb('giset commandline keepalive_margin 1200\nmetset agent_hostname db1\nmetstart\nmetstatus\nswitchmode primary\ncustommonitor timed\nsavescript myscript\nmetstop\n', ['--server', url]);
    expect(r.code, r.err).toBe(0);
    expect(seen.map((s) => `${s.method} ${s.path} ${s.body}`)).toEqual([
      'POST /giset {"dict":"commandline","key":"keepalive_margin","value":"1200"}',
      'POST /metset {"agent_hostname":"db1"}',
      'POST /metstart ',
      'GET /metstatus ',
      'POST /switchmode {"mode":"primary"}',
      'POST /custommonitor {"type":"timed"}',
      'POST /savescript {"file":"myscript"}',
      'POST /metstop ',
    ]);
    expect(r.out).toContain('ok /giset\nok /metset\nok /metstart\nMetrics not running\n');
  });

  it('a route the server does not have is an error reply: printed, and the script goes on', async () => {
    const r = await hammerdb('steprun\nputs next\n', ['--server', url]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('/steprun is not available on this Sledge server (HTTP 404)\nnext\n');
  });
});
