import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInterp } from '@sledge/tcl';
import { makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

/**
 * Files the HammerDB command API writes (savescript, `jobs ID save`): under
 * the data directory, owner-only, never through a planted symbolic link,
 * never over something not Sledge's; and savescript's generated script
 * quotes every value for Tcl, so a hostile setting is read back by tclsh
 * (and by Sledge's own Tcl) as the value, never run.
 */

type Json = Record<string, Record<string, string>>;
const mode = (f: string) => (statSync(f).mode & 0o777).toString(8);

describe('HammerDB files: savescript and jobs ID save', () => {
  let s: SledgeApp & { dataDir: string };
  const dir = mkdtempSync(join(tmpdir(), 'sledge-hdb-files-'));
  const marker = join(dir, 'INJECTED');
  const planted: string[] = [];
  /** A victim file with known content and a symbolic link to it at `at`. */
  const plant = (at: string): string => {
    const victim = join(dir, `victim-${planted.length}`);
    writeFileSync(victim, 'victim content\n');
    rmSync(at, { force: true });
    symlinkSync(victim, at);
    planted.push(at);
    return victim;
  };
  const hdb = async (url: string, body?: unknown) => JSON.parse((await s.app.inject({ method: 'POST', url, payload: body === undefined ? '' : JSON.stringify(body) })).body) as Json;

  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
    for (const p of planted) rmSync(p, { force: true });
    rmSync(dir, { recursive: true, force: true });
    rmSync(s.dataDir, { recursive: true, force: true });
  });

  it('savescript writes <data dir>/scripts/NAME.tcl, 0600 in a 0700 directory, and never through a planted link', async () => {
    await hdb('/dbset', { db: 'pg' });
    await hdb('/loadscript');
    const name = `sledge-sf-${process.pid}-${Date.now()}`;
    // Where savescript wrote before (the shared temp directory): a link planted there is left alone.
    const tmpVictim = plant(join(tmpdir(), `${name}.tcl`));
    const r = await hdb('/savescript', { file: name });
    const file = join(s.dataDir, 'scripts', `${name}.tcl`);
    expect(r).toEqual({ success: { message: `Success ... wrote script to ${file}` } });
    expect(readFileSync(tmpVictim, 'utf8')).toBe('victim content\n');
    expect(lstatSync(file).isFile()).toBe(true);
    expect([mode(file), mode(join(s.dataDir, 'scripts'))]).toEqual(['600', '700']);
    expect(readFileSync(file, 'utf8')).toContain('#EDITABLE OPTIONS');
    // Saving again replaces Sledge's own file (still 0600).
    expect((await hdb('/savescript', { file: name })).success).toBeDefined();
    expect(mode(file)).toBe('600');

    // A link planted at the name in the scripts directory: refused, the link and its target as they were.
    const linked = join(s.dataDir, 'scripts', 'planted.tcl');
    const victim = plant(linked);
    const refused = await hdb('/savescript', { file: 'planted' });
    expect(refused.error?.message).toMatch(/^Error: Failed to write to .*planted\.tcl: .*planted\.tcl is a symbolic link: Sledge does not write through it or replace it/);
    expect(readFileSync(victim, 'utf8')).toBe('victim content\n');
    expect(lstatSync(linked).isSymbolicLink()).toBe(true);
    expect(readlinkSync(linked)).toBe(victim);
  });

  it('savescript refuses a scripts directory that is a link', async () => {
    const other = mkdtempSync(join(tmpdir(), 'sledge-hdb-elsewhere-'));
    const data = await makeApp();
    try {
      symlinkSync(other, join(data.dataDir, 'scripts'));
      await data.app.inject({ method: 'POST', url: '/loadscript', payload: '' });
      const r = JSON.parse((await data.app.inject({ method: 'POST', url: '/savescript', payload: JSON.stringify({ file: 'x' }) })).body) as Json;
      expect(r.error?.message).toMatch(/scripts is a symbolic link: Sledge writes only into a directory of its own/);
      expect(existsSync(join(other, 'x.tcl'))).toBe(false);
    } finally {
      await data.app.close();
      rmSync(other, { recursive: true, force: true });
      rmSync(data.dataDir, { recursive: true, force: true });
    }
  });

  it('a hostile pg_user round-trips through savescript: tclsh and Sledge Tcl read it back as the value and run nothing', async () => {
    const user = `bench"; exec touch ${marker} ; set ::pwned 1 ;# [exec touch ${marker}] $::env(HOME) {`;
    const db = `sales}\nexec touch ${marker}\nset ::pwned 2 ;# \\`;
    await hdb('/dbset', { db: 'pg' });
    expect((await hdb('/diset', { dict: 'tpcc', key: 'pg_user', value: user })).success).toBeDefined();
    expect((await hdb('/diset', { dict: 'tpcc', key: 'pg_dbase', value: db })).success).toBeDefined();
    await hdb('/loadscript');
    const name = `hostile-${process.pid}`;
    expect((await hdb('/savescript', { file: name })).success).toBeDefined();
    const file = join(s.dataDir, 'scripts', `${name}.tcl`);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').filter((l) => /^set (user|db) /.test(l))).toHaveLength(2);

    // Real tclsh sources the script and prints the two values (as UTF-8 hex) and whether anything ran.
    const wrapper = join(dir, 'run.tcl');
    writeFileSync(
      wrapper,
      [
        `source -encoding utf-8 ${file}`,
        'foreach v {user db} { binary scan [encoding convertto utf-8 [set $v]] H* h; puts $h }',
        'puts [info exists ::pwned]',
      ].join('\n'),
    );
    const out = execFileSync('/usr/bin/tclsh', [wrapper], { encoding: 'utf8' }).split('\n');
    expect(out.slice(0, 3)).toEqual([Buffer.from(user).toString('hex'), Buffer.from(db).toString('hex'), '0']);
    expect(existsSync(marker)).toBe(false);

    // Sledge's own interpreter (what `sledge hammerdb script.tcl` runs), with an `exec` that records any call.
    let ran = 0;
    const interp = createInterp({ stdout: () => undefined, stderr: () => undefined });
    interp.register('exec', () => String(++ran));
    await interp.evalFile(text.replace(/^#!.*\n/, '\n'), file);
    expect([interp.getVar('user'), interp.getVar('db'), interp.exists('::pwned'), ran]).toEqual([user, db, false, 0]);

    // customscript reads the saved script back onto the dict as the same values.
    await hdb('/diset', { dict: 'tpcc', key: 'pg_user', value: 'someone-else' });
    expect(await hdb('/customscript', { script: text })).toEqual({ success: { message: 'Set custom script' } });
    const dict = JSON.parse((await s.app.inject({ method: 'GET', url: '/print?dict' })).body) as Json;
    expect([dict['tpcc']?.['pg_user'], dict['tpcc']?.['pg_dbase']]).toEqual([user, db]);
    await hdb('/clearscript');
  });

  it('jobs ID save writes <data dir>/artifacts/hdb_ID.json 0600, never through a planted link', async () => {
    const sqlite = { engine: 'sqlite', file: join(dir, 'files.sqlite') };
    sqliteFromTemplate(s, sqlite.file);
    const run = await post(s, '/api/v1/jobs', { type: 'run', target: sqlite, tprocc: { driver: 'timed', rampup: 0, duration: 0.05, vus: 1 } });
    const id = run.body['id'] as string;
    expect((await waitJob(s, id)).status).toBe('completed');
    const jobs = async (...args: string[]) => JSON.parse((await s.app.inject({ method: 'POST', url: '/jobscmd', payload: JSON.stringify({ args }) })).body) as { output: string[] };

    const tmpVictim = plant(join(tmpdir(), `hdb_${id}.json`));
    const artifacts = join(s.dataDir, 'artifacts');
    mkdirSync(artifacts, { recursive: true });
    const linked = join(artifacts, `hdb_${id}.json`);
    const victim = plant(linked);
    expect((await jobs(id, 'save')).output[0]).toMatch(new RegExp(`^Error: Failed to save job ${id} result artifact: .*hdb_${id}\\.json is a symbolic link`));
    expect([readFileSync(victim, 'utf8'), readlinkSync(linked)]).toEqual(['victim content\n', victim]);

    rmSync(linked);
    expect((await jobs(id, 'save')).output).toEqual([`Saved job ${id} result artifact to ${linked}`]);
    expect([mode(linked), mode(artifacts)]).toEqual(['600', '700']);
    expect(JSON.parse(readFileSync(linked, 'utf8'))).toMatchObject({ job: { jobid: id } });
    expect(readFileSync(tmpVictim, 'utf8')).toBe('victim content\n');
  });
});
