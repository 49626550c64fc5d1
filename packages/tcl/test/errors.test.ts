import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isComplete } from '../src/index.js';
import { run } from './run.js';

describe('errors carry the script line', () => {
  it('an unknown command stops the script with tclsh\'s message, its text, file and line', async () => {
    const r = await run('puts one\n\nset x 1\nfrobnicate $x 2\nputs never');
    expect(r.out).toBe('one\n');
    expect(r.error?.message).toBe('invalid command name "frobnicate"');
    expect(r.error?.line).toBe(4);
    expect(r.error?.report()).toBe('invalid command name "frobnicate"\n    while executing\n"frobnicate $x 2"\n    (file "test.tcl" line 4)');
  });

  it('inside loop and proc bodies the line is the failing command\'s own line in the file', async () => {
    const r = await run('proc p {n} {\n  set a 1\n  if {$n > 1} {\n    nosuch $n\n  }\n}\nforeach i {1 2} {\n  p $i\n}');
    expect(r.error?.message).toBe('invalid command name "nosuch"');
    expect(r.error?.line).toBe(4);
    expect(r.error?.proc).toBe('p');
    const w = await run('set i 0\nwhile {$i < 3} {\n  incr i\n  if {$i == 2} { error "stop at $i" }\n}');
    expect(w.error?.message).toBe('stop at 2');
    expect(w.error?.line).toBe(4);
  });

  it('a command substitution error reports the line it is on', async () => {
    const r = await run('set a [list 1 \\\n  2]\nputs "x [nosuch]"');
    expect(r.error?.line).toBe(3);
  });

  it('parse errors name the line and what is missing', async () => {
    const r = await run('puts ok\nif {1} {\n  puts x\n');
    expect(r.error?.message).toBe('missing close-brace');
    expect(r.error?.line).toBe(2);
    expect((await run('puts "abc')).error?.message).toBe('missing "');
    expect((await run('puts {a}b')).error?.message).toBe('extra characters after close-brace');
    expect((await run('puts [list a')).error?.message).toBe('missing close-bracket');
    expect(isComplete('if {1} {\n')).toBe(false);
    expect(isComplete('if {1} {\n}\n')).toBe(true);
  });

  it('wrong argument counts and bad values say what to fix', async () => {
    expect((await run('set')).error?.message).toBe('wrong # args: should be "set varName ?newValue?"');
    expect((await run('proc f {a b} {}; f 1')).error?.message).toBe('wrong # args: should be "f a b"');
    expect((await run('incr x abc')).error?.message).toBe('expected integer but got "abc"');
    expect((await run('if {abc} {}')).error?.message).toContain('invalid bareword "abc"');
    expect((await run('set x abc; if {$x} {}')).error?.message).toBe('expected boolean value but got "abc"');
    expect((await run('lindex "a {b c" 0')).error?.message).toBe('unmatched open brace in list');
    expect((await run('puts $nope')).error?.message).toBe('can\'t read "nope": no such variable');
    expect((await run('puts $::env(SLEDGE_NOT_SET_ANYWHERE)')).error?.message).toBe('can\'t read "::env(SLEDGE_NOT_SET_ANYWHERE)": no such element in array');
  });

  it('runaway recursion stops with Tcl\'s message instead of exhausting the stack', async () => {
    expect((await run('proc f {} { f }; f')).error?.message).toBe('too many nested evaluations (infinite loop?)');
  });

  it('break outside a loop and return at top level', async () => {
    expect((await run('break')).error?.message).toBe('invoked "break" outside of a loop');
    const r = await run('puts a\nreturn done\nputs b');
    expect(r.out).toBe('a\n');
    expect(r.result).toBe('done');
  });
});

describe('exit, the event loop and files', () => {
  it('exit ends the script with its code', async () => {
    const r = await run('puts a; exit 3; puts b');
    expect(r.out).toBe('a\n');
    expect(r.exit).toBe(3);
    expect((await run('exit')).exit).toBe(0);
  });

  it('after ms sleeps; after ms script runs from vwait and update in time order', async () => {
    const t0 = Date.now();
    await run('after 120');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    const r = await run('set log {}\nafter 60 {lappend log b; set done 1}\nafter 10 {lappend log a}\nvwait done\nputs $log');
    expect(r.out).toBe('a b\n');
    const u = await run('set x 0; after 0 {set x 1}; after 20; update; puts $x');
    expect(u.out).toBe('1\n');
    expect((await run('vwait forever')).error?.message).toBe('can\'t wait for variable "forever": would wait forever');
    const c = await run('set id [after 10 {set y 1}]; after cancel $id; puts [llength [after info]]');
    expect(c.out).toBe('0\n');
  });

  it('the HammerDB style poll loop: a proc that re-schedules itself until done, then exit', async () => {
    const r = await run('set n 0\nproc poll {} {\n  global n\n  incr n\n  if {$n < 3} { after 5 poll } else { puts "polled $n"; exit 0 }\n}\npoll\nvwait forever');
    expect(r.out).toBe('polled 3\n');
    expect(r.exit).toBe(0);
  });

  it('open, puts to a channel, gets, read, close, file commands', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sledge-tcl-'));
    const f = join(dir, 'out.txt');
    const r = await run(
      `set of [open ${f} w]\nputs $of "line 1"\nputs -nonewline $of "line 2"\nclose $of\n` +
        `set fd [open ${f} r]\nwhile {[gets $fd line] >= 0} { lappend lines $line }\nclose $fd\n` +
        `set fd [open ${f}]; set all [read $fd]; close $fd\n` +
        `puts [list $lines [string length $all] [file exists ${f}] [file tail ${f}] [file extension ${f}] [file exists ${f}.no]]\n` +
        `set a [open ${f} a]; puts $a more; close $a\n` +
        `puts [catch {open ${join(dir, 'missing', 'x')} r} m]:$m`,
    );
    expect(r.error).toBeUndefined();
    expect(r.out).toBe(`{{line 1} {line 2}} 13 1 out.txt .txt 0\n1:couldn't open "${join(dir, 'missing', 'x')}": no such file or directory\n`);
    expect(readFileSync(f, 'utf8')).toBe('line 1\nline 2more\n');
  });

  it('source runs another file; its errors name that file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sledge-tcl-'));
    const lib = join(dir, 'lib.tcl');
    writeFileSync(lib, 'proc twice {x} { expr {$x * 2} }\nset loaded 1\n');
    const ok = await run(`source ${lib}\nputs "[twice 21] $loaded"`);
    expect(ok.out).toBe('42 1\n');
    const bad = join(dir, 'bad.tcl');
    writeFileSync(bad, 'set a 1\nbogus\n');
    const b = await run(`source ${bad}`);
    expect(b.error?.file).toBe(bad);
    expect(b.error?.line).toBe(2);
  });

  it('clock seconds and milliseconds are now; the default clock format has the year last', async () => {
    const r = await run('puts [clock seconds] ; puts [clock milliseconds]; puts [clock format 0 -gmt 1]');
    const [s, ms, fmt] = r.out.trim().split('\n');
    expect(Math.abs(Number(s) - Date.now() / 1000)).toBeLessThan(5);
    expect(Math.abs(Number(ms) - Date.now())).toBeLessThan(5000);
    expect(fmt).toBe('Thu Jan 01 00:00:00 UTC 1970');
  });

  it('srand makes rand repeatable', async () => {
    const a = await run('expr {srand(7)}; puts [expr {rand()}]');
    const b = await run('expr {srand(7)}; puts [expr {rand()}]');
    expect(a.out).toBe(b.out);
    const x = Number(a.out);
    expect(x).toBeGreaterThan(0);
    expect(x).toBeLessThan(1);
  });
});
