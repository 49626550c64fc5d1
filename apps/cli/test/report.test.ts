import { existsSync, lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliProcess } from './cli-process.js';
import { copySqliteTprocc } from './prebuilt.js';
import { beforeAll, describe, expect, it } from 'vitest';

const cwd = mkdtempSync(join(tmpdir(), 'sledge-cli-report-out-'));
const { sledge, local, dataDir } = cliProcess('report', { cwd });

/** `sledge report`: a job's (or a comparison's) HTML report written to a file, in-process with --local. */
describe('sledge report', () => {
  const ids: string[] = [];
  beforeAll(async () => {
    copySqliteTprocc(dataDir);
    for (let i = 0; i < 2; i++) {
      const r = await sledge('run', ...local, '--db', 'sqlite', '--vus', '1', '--rampup', '0', '--duration', '0.1', '--json', '--quiet');
      expect(r.code, r.err).toBe(0);
      ids.push((JSON.parse(r.out) as { job: { id: string } }).job.id);
    }
  }, 240_000);

  it('writes sledge-<id>.html by default, or the -o file, and the page holds the result', async () => {
    const r = await sledge('report', ids[0]!, ...local);
    expect(r.code, r.err).toBe(0);
    const file = join(cwd, `sledge-${ids[0]}.html`);
    expect(r.out).toMatch(new RegExp(`^wrote ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ bytes\\)\\n$`));
    const page = readFileSync(file, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toMatch(/TEST RESULT : System achieved \d+ NOPM from \d+ SQLite TPM/);
    expect(page).toContain('<svg ');
    const o = await sledge('report', ids[0]!, ...local, '-o', 'mine.html', '--json');
    expect(o.code, o.err).toBe(0);
    expect(JSON.parse(o.out)).toMatchObject({ file: join(cwd, 'mine.html'), jobs: [ids[0]] });
    expect(readFileSync(join(cwd, 'mine.html'), 'utf8')).toContain(ids[0]);
    const stdout = await sledge('report', ids[1]!, ...local, '--out', '-');
    expect(stdout.out).toMatch(/^<!doctype html>[^]*<\/html>\n$/);
  });

  it('writes the file 0600 and never through a symbolic link planted at the -o name (the link target keeps its content)', async () => {
    expect(statSync(join(cwd, `sledge-${ids[0]}.html`)).mode & 0o777).toBe(0o600);
    const victim = join(cwd, 'victim.txt');
    writeFileSync(victim, 'victim content\n', { mode: 0o644 });
    symlinkSync(victim, join(cwd, 'linked.html'));
    const r = await sledge('report', ids[0]!, ...local, '-o', 'linked.html');
    expect(r.code).toBe(2);
    expect(r.err).toContain('is a symbolic link');
    expect(readFileSync(victim, 'utf8')).toBe('victim content\n');
    expect(lstatSync(join(cwd, 'linked.html')).isSymbolicLink()).toBe(true);
    // An existing file of the user's is replaced and made owner-only.
    writeFileSync(join(cwd, 'old.html'), 'old', { mode: 0o644 });
    expect((await sledge('report', ids[0]!, ...local, '-o', 'old.html')).code).toBe(0);
    expect(readFileSync(join(cwd, 'old.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(statSync(join(cwd, 'old.html')).mode & 0o777).toBe(0o600);
  });

  it('writes a comparison with --compare', async () => {
    const r = await sledge('report', ids[0]!, '--compare', ids[1]!, ...local);
    expect(r.code, r.err).toBe(0);
    const page = readFileSync(join(cwd, `sledge-compare-${ids[0]}-${ids[1]}.html`), 'utf8');
    expect(page).toContain('Comparison of 2 TPROC-C jobs');
  });

  it('refuses bad input with exit code 2 and writes nothing', async () => {
    const none = await sledge('report', ...local);
    expect(none.code).toBe(2);
    expect(none.err).toContain('sledge report needs a job id');
    const unknown = await sledge('report', 'FFFFFFFFFFFFFFFFFFFFFFFF', ...local);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('SLEDGE_E_NOT_FOUND: job FFFFFFFFFFFFFFFFFFFFFFFF not found');
    expect(existsSync(join(cwd, 'sledge-FFFFFFFFFFFFFFFFFFFFFFFF.html'))).toBe(false);
    const twice = await sledge('report', ids[0]!, '--compare', ids[0]!, ...local);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('listed twice');
    const empty = await sledge('report', ids[0]!, '--compare', ',', ...local);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('[--compare]');
    const server = await sledge('report', ids[0]!);
    expect(server.code).toBe(2);
    expect(server.err).toContain('cannot reach the Sledge server');
  });
});
