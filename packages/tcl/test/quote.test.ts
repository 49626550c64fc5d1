import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createInterp, tclQuote } from '../src/index.js';

/**
 * tclQuote writes a value into a generated script (savescript). The property:
 * `set v <tclQuote(s)>` gives v == s, byte for byte, in real tclsh 8.6 and in
 * Sledge's interpreter, runs nothing, and stays on one line.
 */
const dir = mkdtempSync(join(tmpdir(), 'sledge-tclquote-'));
const marker = join(dir, 'INJECTED');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE = [
  `"; exec touch ${marker} ;`,
  `"; exec touch ${marker} ;#`,
  `[exec touch ${marker}]`,
  `$::env(HOME)`,
  `\${x}`,
  `a}; exec touch ${marker}; set b {`,
  `}`,
  `{`,
  `{*}[exec touch ${marker}]`,
  `x\\`,
  `x\\\\`,
  `\\`,
  `a\\}b`,
  `a\\{b`,
  `line1\nexec touch ${marker}\n`,
  `a\\\nexec touch ${marker}`,
  `\r\n\t\v\f\u0001\u001f\u007f`,
  `#comment`,
  `;`,
  ` leading and trailing `,
  `""`,
  `\\x41\\u0042\\n`,
  `é 日本語 😀`,
  `tpcc/********@scdb`,
  `plain`,
  ``,
];

describe('tclQuote', () => {
  it('keeps plain words as they are and braces what braces can carry', () => {
    expect(tclQuote('plain')).toBe('plain');
    expect(tclQuote('')).toBe('{}');
    expect(tclQuote('a b')).toBe('{a b}');
    expect(tclQuote('"; exec touch f ;')).toBe('{"; exec touch f ;}');
    expect(tclQuote('}')).toBe('\\}');
    expect(tclQuote('a\nb')).toBe('a\\nb');
    expect(tclQuote('x\\')).toBe('x\\\\');
    expect(tclQuote('\u0001')).toBe('\\u0001');
    expect([tclQuote('db1', 'quoted'), tclQuote('', 'quoted'), tclQuote('a b', 'quoted'), tclQuote('"x', 'quoted')]).toEqual(['"db1"', '""', '{a b}', '{"x}']);
    for (const s of HOSTILE) expect(tclQuote(s)).not.toMatch(/[\n\r]/);
  });

  it('real tclsh reads every hostile value back exactly and runs none of it', () => {
    const lines = HOSTILE.flatMap((s, i) => [`set v${i} ${tclQuote(s)} ;# value ${i}`, `set q${i} ${tclQuote(s, 'quoted')};# quoted`, `if {$q${i} ne $v${i}} { exit 3 }`]);
    // Each value as the hex of its UTF-8 bytes, one per line (independent of tclsh's system encoding).
    lines.push(`for {set i 0} {$i < ${HOSTILE.length}} {incr i} { binary scan [encoding convertto utf-8 [set v$i]] H* h; puts $h }`);
    const file = join(dir, 'values.tcl');
    writeFileSync(file, lines.join('\n') + '\n');
    const out = execFileSync('/usr/bin/tclsh', ['-encoding', 'utf-8', file], { encoding: 'utf8' });
    expect(out.split('\n').slice(0, HOSTILE.length)).toEqual(HOSTILE.map((s) => Buffer.from(s, 'utf8').toString('hex')));
    expect(existsSync(marker)).toBe(false);
  });

  it("Sledge's interpreter reads every hostile value back exactly and runs none of it", async () => {
    let ran = 0;
    const interp = createInterp({ stdout: () => undefined, stderr: () => undefined });
    // `exec` is not a command of Sledge's interpreter: define one that records any call.
    interp.register('exec', () => {
      ran++;
      return '';
    });
    await interp.evalFile(HOSTILE.map((s, i) => `set v${i} ${tclQuote(s)} ;# value ${i}\nset q${i} ${tclQuote(s, 'quoted')};# quoted`).join('\n'), 'values.tcl');
    for (let i = 0; i < HOSTILE.length; i++) expect([interp.getVar(`v${i}`), interp.getVar(`q${i}`)]).toEqual([HOSTILE[i], HOSTILE[i]]);
    expect(ran).toBe(0);
  });
});
