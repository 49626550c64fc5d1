import { existsSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, VuStatus } from '@sledge/protocol';
import { editableOptions, maskScript, parseSetLine, settingsToKeys } from '../dist/routes/hammerdb/customscript.js';
import { vuStates } from '../dist/routes/hammerdb/vus.js';
import { makeApp, type SledgeApp } from './helpers.js';

/**
 * The HammerDB verbs beyond the v3.2 check script: giset and print?generic,
 * the CPU metrics verbs over Sledge's agents, switchmode, custommonitor,
 * savescript, runtimer and waittocomplete, customscript with a generated
 * driver script.
 */

type Json = string | Json[] | { [k: string]: Json };

async function hdb(s: SledgeApp, method: 'GET' | 'POST', url: string, body?: string): Promise<Json> {
  const r = await s.app.inject({ method, url, ...(body !== undefined ? { payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}) });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBe(200);
  return JSON.parse(r.body) as Json;
}
const ok = (message: string) => ({ success: { message } });
const err = (message: string) => ({ error: { message } });
const body = (o: Record<string, string>) => JSON.stringify(o);

/** A PostgreSQL TPROC-C timed driver script as HammerDB 4.x generates it (the block only matters; the rest is Tcl Sledge never runs). */
const PG_SCRIPT = `#!/usr/local/bin/tclsh8.6
#EDITABLE OPTIONS##################################################
set library Pgtcl ;# PostgreSQL Library
set total_iterations 10000000 ;# Number of transactions before logging off
set RAISEERROR "false" ;# Exit script on PostgreSQL (true or false)
set KEYANDTHINK "true" ;# Time for user thinking and keying (true or false)
set rampup 3;  # Rampup time in minutes before first Transaction Count is taken
set duration 7;  # Duration in minutes before second Transaction Count is taken
set mode "Local" ;# HammerDB operational mode
set VACUUM "false" ;# Perform checkpoint and vacuum when complete (true or false)
set DRITA_SNAPSHOTS "false";#Take DRITA Snapshots
set ora_compatible "false" ;#Postgres Plus Oracle Compatible Schema
set pg_storedprocs "true" ;#Postgres v11 Stored Procedures
set host "db1.example" ;# Address of the server hosting PostgreSQL
set port "5433" ;# Port of the PostgreSQL server
set sslmode "disable" ;# SSLMode of the PostgreSQL Server
set user "bench" ;# PostgreSQL user
set password "S3cret-Pw" ;# Password for the PostgreSQL user
set db "sales" ;# Database containing the TPC Schema
set allwarehouses "true";# Use all warehouses to increase I/O
#EDITABLE OPTIONS##################################################
#LOAD LIBRARIES AND MODULES
if [catch {package require $library} message] { error "Failed to load $library - $message" }
`;

describe('HammerDB generic dict: giset and print?generic', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('prints every section, sets aliased, stored and fixed keys by the rule', async () => {
    const g = (await hdb(s, 'GET', '/print?generic')) as Record<string, Record<string, string>>;
    expect(Object.keys(g)).toEqual(['theme', 'sqlitedb', 'code_highlight', 'benchmark', 'virtual_user_options', 'autopilot', 'mode', 'transaction_counter', 'metrics', 'datageneration', 'commandline', 'webservice', 'tpcoss', 'timeprofile']);
    expect(g['commandline']).toEqual({ sqlite_db: 'TMP', keepalive_margin: '60', jobsoutput: 'JSON', jobs_disable: '0', jobs_profile_id: '0' });
    expect(g['benchmark']).toEqual({ rdbms: 'Oracle', bm: 'TPC-C', first_result: 'NOPM' });
    expect(await hdb(s, 'GET', '/generic')).toEqual(g);
    // Aliases go through the verb that owns the setting.
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'virtual_user_options', key: 'virtual_users', value: '4' }))).toEqual(ok('Changed virtual_user_options:virtual_users from 1 to 4 for generic'));
    expect(((await hdb(s, 'GET', '/vuconf')) as Record<string, string>)['Virtual Users']).toBe('4');
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'virtual_user_options', key: 'virtual_users', value: '0' }))).toEqual(err('The number of virtual users must be 1 or greater'));
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'benchmark', key: 'rdbms', value: 'PostgreSQL' }))).toEqual(ok('Changed benchmark:rdbms from Oracle to PostgreSQL for generic'));
    expect(await hdb(s, 'GET', '/bm')).toEqual({ benchmark: 'TPC-C' });
    expect(((await hdb(s, 'GET', '/db')) as Record<string, string>)['current']).toBe('PostgreSQL');
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'transaction_counter', key: 'tc_refresh_rate', value: '5' }))).toEqual(ok('Changed transaction_counter:tc_refresh_rate from 10 to 5 for generic'));
    expect(((await hdb(s, 'GET', '/tcconf')) as Record<string, string>)['tc_refresh_rate']).toBe('5');
    // Stored and honoured.
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'commandline', key: 'keepalive_margin', value: '30' }))).toEqual(ok('Changed commandline:keepalive_margin from 60 to 30 for generic'));
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'commandline', key: 'keepalive_margin', value: '30' }))).toEqual(ok('Value 30 for commandline:keepalive_margin is the same as existing value 30, no change made'));
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'commandline', key: 'keepalive_margin', value: 'soon' }))).toEqual(err('keepalive_margin must be a whole number of seconds from 0 to 86400'));
    // The jobs verb's settings: jobs profileid / jobs format.
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'commandline', key: 'jobs_profile_id', value: '3' }))).toEqual(ok('Changed commandline:jobs_profile_id from 0 to 3 for generic'));
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'commandline', key: 'jobsoutput', value: 'text' }))).toEqual(ok('Changed commandline:jobsoutput from JSON to text for generic'));
    expect(await hdb(s, 'POST', '/jobscmd', '{"args":["format"]}')).toMatchObject({ output: ['Error: Usage: jobs format <fmt>', expect.stringMatching(/^Error: Usage: \[ jobs /)] });
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'commandline', key: 'jobsoutput', value: 'xml' }))).toEqual(err('Error: Usage: jobs format [ text | JSON ]'));
    // Fixed: the default (or a no-op value) only.
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'theme', key: 'scaletheme', value: 'light' }))).toEqual(ok('Changed theme:scaletheme from dark to light for generic'));
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'commandline', key: 'jobs_disable', value: '1' }))).toEqual(err('Value 1 for commandline:jobs_disable is not supported: Sledge stores every job; it stays 0'));
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'timeprofile', key: 'xt_reservoir', value: '500' }))).toEqual(
      err("Value 500 for timeprofile:xt_reservoir is not supported: Sledge's latency histograms keep every sample; there is no reservoir to size; it stays 10000"),
    );
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'colours', key: 'x', value: '1' }))).toEqual(err('Dictionary "colours" does not exist: type "print generic" for valid dictionaries and keys'));
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'theme', key: 'x', value: '1' }))).toEqual(err('Dictionary "theme" exists but key "x" doesn\'t'));
    expect(await hdb(s, 'POST', '/giset', body({ dict: 'theme' }))).toEqual(err('Incorrect number of parameters to giset dict key value'));
    expect((await hdb(s, 'GET', '/print?generic')) as Record<string, Record<string, string>>).toMatchObject({ commandline: { keepalive_margin: '30' }, theme: { scaletheme: 'light' }, virtual_user_options: { virtual_users: '4' } });
  });
});

describe('HammerDB CPU metrics, modes, scripts and waits', () => {
  let s: SledgeApp & { dataDir: string };
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('metset, metstart, metstatus, metstop over the connected CPU agents', async () => {
    const host = os.hostname();
    expect(await hdb(s, 'GET', '/metstatus')).toEqual(ok(`CPU Metrics are not running on ${host}`));
    expect((await hdb(s, 'POST', '/metstart', '')) as object).toEqual(
      err(`No Metrics Agent detected on id: localhost:10000: the server's local CPU agent is not connected (it starts with the server unless SLEDGE_AGENT=off; or run pnpm sledge-agent --server ws://<sledge-host>:8080)`),
    );
    const id = s.engine.agents.connect(`${host} (local)`, { hostname: host, cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 1e9, os: 'Linux', kernel: '6' });
    expect(await hdb(s, 'POST', '/metstart', '')).toEqual(ok(`Started CPU Metrics for Test CPU:(2 CPUs) from agent ${host} (local); every following job records them`));
    expect(await hdb(s, 'POST', '/metstart', '')).toEqual(err(`CPU metrics are already running on ${host}, call metstop to stop`));
    expect(await hdb(s, 'GET', '/metstatus')).toEqual(ok(`CPU Metrics are running on ${host}, Metrics Agent running on localhost:10000 (${host} (local))`));
    expect(await hdb(s, 'POST', '/metset', body({ agent_id: '10001' }))).toEqual(err('Stop Metrics before setting configuration'));
    // A job submitted now records CPU samples; after metstop it does not.
    await hdb(s, 'POST', '/dbset', body({ db: 'sqlite' }));
    await hdb(s, 'POST', '/diset', body({ dict: 'connection', key: 'sqlite_file', value: join(s.engine.dataDir, 'm.sqlite') }));
    const first = JSON.stringify(await hdb(s, 'POST', '/buildschema', ''));
    const on = /JOBID=(\w+)/.exec(first)?.[1];
    expect(on, first).toBeDefined();
    expect((s.store.getJob(on!)!.config as { metrics: { cpu: boolean } }).metrics.cpu).toBe(true);
    expect(await hdb(s, 'POST', '/waittocomplete', '')).toMatchObject({ success: { message: expect.stringMatching(/^waittocomplete returned after \d+ seconds: all Virtual Users complete \(JOBID=\w+ completed\)$/) } });
    expect(await hdb(s, 'POST', '/metstop', '')).toEqual(ok('Stopping Metrics Agent and Display on localhost:10000: following jobs record no CPU metrics'));
    expect(await hdb(s, 'POST', '/metstop', '')).toEqual(err(`CPU Metrics are not running on ${host}`));
    const second = JSON.stringify(await hdb(s, 'POST', '/deleteschema', ''));
    const off = /JOBID=(\w+)/.exec(second)?.[1];
    expect(off, second).toBeDefined();
    expect((s.store.getJob(off!)!.config as { metrics: { cpu: boolean } }).metrics.cpu).toBe(false);
    expect(await hdb(s, 'POST', '/runtimer', body({ seconds: '120' }))).toMatchObject({ success: { message: expect.stringMatching(/^runtimer returned after \d+ seconds$/) } });
    expect(await hdb(s, 'POST', '/metset', body({ agent_id: 'x' }))).toEqual(err('agent_id must be an integer port number (1-65535)'));
    expect(await hdb(s, 'POST', '/metset', body({ agent_hostname: 'db-host' }))).toEqual(ok('Metrics agent hostname set to db-host'));
    expect(await hdb(s, 'POST', '/metset', body({ agent_port: '1' }))).toEqual(err('Error: invalid option: Usage: metset [agent_hostname|agent_id] value'));
    expect(await hdb(s, 'POST', '/metstart', '')).toEqual(err('Remote Metrics Agent is not running on db-host, 10000: on that host run pnpm sledge-agent --server ws://<sledge-host>:8080 --label db-host'));
    s.engine.agents.disconnect(id);
    // HammerDB 4.3-4.7's client sends metstart as a GET: the same answer as POST.
    expect(await hdb(s, 'GET', '/metstart')).toEqual(err('Remote Metrics Agent is not running on db-host, 10000: on that host run pnpm sledge-agent --server ws://<sledge-host>:8080 --label db-host'));
  });

  it('switchmode, custommonitor, runtimer and waittocomplete', async () => {
    expect(await hdb(s, 'POST', '/switchmode', body({ mode: 'local' }))).toEqual(ok('Mode is Local: Sledge runs every Virtual User on this server'));
    expect(await hdb(s, 'POST', '/switchmode', body({ mode: 'primary', id: '0', host: 'localhost' }))).toEqual(
      err("Primary, replica modes are not HammerDB's Tcl comm in Sledge: start replicas with sledge replica --nats URL and give the run a placement on them (REST placement, CLI --replicas); for HammerDB's replica schedule on this server use steprun"),
    );
    expect(await hdb(s, 'POST', '/switchmode', body({ mode: 'remote' }))).toEqual(err('Usage: switchmode {"mode":"local|primary|replica","id":"<id>","host":"<host>"}'));
    expect(await hdb(s, 'POST', '/custommonitor', body({ type: 'timed' }))).toEqual(ok('Monitor Virtual User enabled for customscript'));
    expect(await hdb(s, 'POST', '/custommonitor', body({ type: 'test' }))).toEqual(ok('Monitor Virtual User disabled for custom script'));
    expect(await hdb(s, 'POST', '/custommonitor', body({ type: 'both' }))).toEqual(err('Usage: custommonitor test|timed'));
    expect(await hdb(s, 'POST', '/runtimer', body({ seconds: '0' }))).toEqual(err('runtimer requires a whole number of seconds from 1 to 86400'));
    expect(await hdb(s, 'POST', '/runtimer', '')).toEqual(err('Usage: runtimer {"seconds":"N"}: wait until the virtual users complete or N seconds pass'));
    await hdb(s, 'POST', '/vudestroy', '');
    expect(await hdb(s, 'POST', '/waittocomplete', '')).toEqual(ok('No Virtual Users running: nothing to wait for'));
    // vurun and steprun run only a loaded script; steprun is TPROC-C only (HammerDB CLI's messages).
    expect(await hdb(s, 'POST', '/clearscript', '')).toEqual(ok('Script cleared'));
    expect(await hdb(s, 'POST', '/vurun', '')).toEqual(err('Error: There is no workload to run because the Script is empty'));
    expect(await hdb(s, 'POST', '/steprun', body({ 'replica1.start_after_prev': '0', 'replica1.duration': '1', 'replica1.virtual_users': '1' }))).toEqual(err('Error: There is no workload to run because the Script is empty'));
    expect(await hdb(s, 'POST', '/dbset', body({ bm: 'TPC-H' }))).toMatchObject({ success: {} });
    expect(await hdb(s, 'POST', '/steprun', body({ 'replica1.start_after_prev': '0', 'replica1.duration': '1', 'replica1.virtual_users': '1' }))).toEqual(err('Error: Step Workload does not support TPC-H'));
    expect(await hdb(s, 'POST', '/dbset', body({ bm: 'TPC-C' }))).toMatchObject({ success: {} });
  });

  it('customscript reads a generated driver script onto the dict; savescript writes one back', async () => {
    expect(await hdb(s, 'POST', '/dbset', body({ db: 'pg' }))).toEqual(ok('Database set to PostgreSQL'));
    expect(await hdb(s, 'POST', '/savescript', body({ file: 'x' }))).toEqual(err('Error: No script loaded to save, use loadscript to load'));
    expect(await hdb(s, 'POST', '/customscript', JSON.stringify({ script: PG_SCRIPT }))).toEqual(ok('Set custom script'));
    const dict = (await hdb(s, 'GET', '/dict')) as Record<string, Record<string, string>>;
    expect(dict['connection']).toEqual({ pg_host: 'db1.example', pg_port: '5433', pg_sslmode: 'disable' });
    expect(dict['tpcc']).toMatchObject({ pg_user: 'bench', pg_pass: '********', pg_dbase: 'sales', pg_keyandthink: 'true', pg_rampup: '3', pg_duration: '7', pg_storedprocs: 'true', pg_allwarehouse: 'true', pg_driver: 'timed' });
    expect(s.store && JSON.stringify(dict)).not.toContain('S3cret-Pw');
    const script = (await hdb(s, 'GET', '/print?script')) as { script: string };
    expect(script.script).toContain('set password "********" ;# Password for the PostgreSQL user');
    expect(script.script).not.toContain('S3cret-Pw');
    expect(script.script).toContain('set host "db1.example"');
    // savescript: a bare name, .tcl forced, in <data dir>/scripts/.
    const scripts = join(s.dataDir, 'scripts');
    expect(await hdb(s, 'POST', '/savescript', body({ file: '../evil' }))).toEqual(err(`savescript writes a bare file name (letters, digits, . _ -) into ${scripts}: "../evil" is not one`));
    const name = `sledge-ws-${process.pid}`;
    expect(await hdb(s, 'POST', '/savescript', body({ file: `${name}.txt` }))).toEqual(ok(`Success ... wrote script to ${join(scripts, `${name}.tcl`)}`));
    const saved = readFileSync(join(scripts, `${name}.tcl`), 'utf8');
    expect(saved).toBe(script.script);
    rmSync(join(scripts, `${name}.tcl`));
    // A script of loadscript saves as a block customscript reads back, with no password in it.
    expect(await hdb(s, 'POST', '/loadscript', '')).toEqual(ok('script loaded'));
    expect(await hdb(s, 'POST', '/savescript', body({ file: name }))).toEqual(ok(`Success ... wrote script to ${join(scripts, `${name}.tcl`)}`));
    const generated = readFileSync(join(scripts, `${name}.tcl`), 'utf8');
    rmSync(join(scripts, `${name}.tcl`));
    expect(generated).toContain('set host "db1.example" ;# connection:pg_host');
    expect(generated).toContain('set password "********" ;# tpcc:pg_pass');
    expect(generated).not.toContain('S3cret-Pw');
    await hdb(s, 'POST', '/diset', body({ dict: 'tpcc', key: 'pg_rampup', value: '1' }));
    expect(await hdb(s, 'POST', '/customscript', JSON.stringify({ script: generated }))).toEqual(ok('Set custom script'));
    expect(((await hdb(s, 'GET', '/dict')) as Record<string, Record<string, string>>)['tpcc']).toMatchObject({ pg_rampup: '3', pg_pass: '********' });
    // custommonitor decides whether the custom script's VUs include a monitor.
    expect(await hdb(s, 'POST', '/custommonitor', body({ type: 'test' }))).toEqual(ok('Monitor Virtual User disabled for custom script'));
    expect(await hdb(s, 'POST', '/vucreate', '')).toEqual(ok('1 Virtual Users Created'));
    expect(await hdb(s, 'POST', '/vudestroy', '')).toEqual(ok('vudestroy success'));
    expect(await hdb(s, 'POST', '/custommonitor', body({ type: 'timed' }))).toEqual(ok('Monitor Virtual User enabled for customscript'));
    expect(await hdb(s, 'POST', '/vucreate', '')).toEqual(ok('2 Virtual Users Created with Monitor VU'));
    expect(await hdb(s, 'POST', '/vudestroy', '')).toEqual(ok('vudestroy success'));
    expect(existsSync(join(tmpdir(), `${name}.tcl`))).toBe(false);
    expect(existsSync(join(scripts, `${name}.tcl`))).toBe(false);
  });

  it('refuses what is not a generated driver script, changing nothing', async () => {
    const before = await hdb(s, 'GET', '/dict');
    const refuse = async (script: string, message: RegExp) => {
      const r = (await hdb(s, 'POST', '/customscript', JSON.stringify({ script }))) as { error?: { message: string } };
      expect(r.error?.message).toMatch(message);
      expect(await hdb(s, 'GET', '/dict')).toEqual(before);
    };
    await refuse('puts "hello"', /^customscript takes a HammerDB-generated TPROC-C or TPROC-H driver script .*This script has no #EDITABLE OPTIONS block$/);
    await refuse(PG_SCRIPT.replace('set db "sales"', 'proc x {} {}'), /Line 19 of the script \(in the block\) is not a "set name value" line: proc x \{\} \{\} ;# Database/);
    await refuse(PG_SCRIPT.replace('Pgtcl', 'mysqltcl'), /^This script is for MySQL \(library mysqltcl\): dbset db mysql before customscript$/);
    await refuse(PG_SCRIPT.replace('"Local"', '"Primary"'), /^mode Primary is not supported: Sledge runs in Local mode only$/);
    await refuse(PG_SCRIPT.replace('set port "5433"', 'set port "fifty"'), /^customscript: Value fifty for connection:pg_port must be an integer$/);
    await refuse(PG_SCRIPT.replace('set DRITA_SNAPSHOTS "false"', 'set DRITA_SNAPSHOTS "true"'), /^customscript: Value true for tpcc:pg_dritasnap is not supported: Sledge drives community PostgreSQL/);
    await refuse(PG_SCRIPT.replace('set host', 'set hostname'), /^set hostname is not a setting Sledge reads from a PostgreSQL TPROC-C script; it reads: library, mode, total_iterations/);
    await refuse(PG_SCRIPT.replace('set total_iterations', 'set total_querysets'), /^This is a TPROC-H driver script: dbset bm TPC-H before customscript$/);
    expect(await hdb(s, 'POST', '/customscript', JSON.stringify({ script: PG_SCRIPT, other: 'x' }))).toEqual(err('Incorrect number of parameters to customscript key value'));
  });
});

describe('VU states a stopped run leaves', () => {
  it('say finished, never running, whatever the last per-VU update said', () => {
    const job = (status: string) => ({ id: 'J', status }) as unknown as Job;
    const perVu = [
      { vu: 2, state: 'running' },
      { vu: 3, state: 'finished' },
      { vu: 4, state: 'failed' },
    ] as unknown as VuStatus[];
    expect(vuStates({ count: 4, monitor: true }, job('stopped'), perVu)).toEqual(['FINISH SUCCESS', 'FINISH SUCCESS', 'FINISH SUCCESS', 'FINISH FAILED']);
    expect(vuStates({ count: 4, monitor: true }, job('failed'), perVu)).toEqual(['FINISH FAILED', 'FINISH FAILED', 'FINISH SUCCESS', 'FINISH FAILED']);
    expect(vuStates({ count: 4, monitor: true }, job('measuring'), perVu)).toEqual(['RUNNING', 'RUNNING', 'FINISH SUCCESS', 'FINISH FAILED']);
  });
});

describe('customscript parser', () => {
  it('reads set lines the way HammerDB writes them', () => {
    expect(parseSetLine('set rampup 2;  # Rampup time in minutes')).toEqual(['rampup', '2']);
    expect(parseSetLine('set DRITA_SNAPSHOTS "false";#Take DRITA Snapshots')).toEqual(['DRITA_SNAPSHOTS', 'false']);
    expect(parseSetLine('set server {.\\sqlexpress};# Microsoft SQL Server Database Server')).toEqual(['server', '.\\sqlexpress']);
    expect(parseSetLine('set connect tpcc/tpcc@scdb ;# Oracle connect string')).toEqual(['connect', 'tpcc/tpcc@scdb']);
    expect(parseSetLine('set x "a" extra')).toBeNull();
    expect(parseSetLine('puts "x"')).toBeNull();
  });

  it("maps an Oracle timed script's connect strings and driver keys", () => {
    const text = [
      '#!/usr/local/bin/tclsh8.6',
      '#EDITABLE OPTIONS##################################################',
      'set library Oratcl ;# Oracle OCI Library',
      'set total_iterations 10000000 ;# Number of transactions before logging off',
      'set RAISEERROR "false" ;# Exit script on Oracle error (true or false)',
      'set KEYANDTHINK "false" ;# Time for user thinking and keying (true or false)',
      'set CHECKPOINT "false" ;# Perform Oracle checkpoint when complete (true or false)',
      'set rampup 5;  # Rampup time in minutes before first snapshot is taken',
      'set duration 20;  # Duration in minutes before second AWR snapshot is taken',
      'set mode "Local" ;# HammerDB operational mode',
      'set timesten "false" ;# Database is TimesTen',
      'set systemconnect system/Sys-Pw@scdb ;# Oracle connect string for system user',
      'set connect tpcc/Tpcc-Pw@scdb ;# Oracle connect string for tpc-c user',
      'set allwarehouses "true";# Use all warehouses to increase I/O',
      '            #EDITABLE OPTIONS##################################################',
      '#LOAD LIBRARIES AND MODULES',
    ].join('\n');
    const keys = settingsToKeys('ora', 'TPC-C', editableOptions(text));
    expect(keys).toEqual(
      expect.arrayContaining([
        ['tpcc', 'rampup', '5'],
        ['tpcc', 'duration', '20'],
        ['tpcc', 'checkpoint', 'false'],
        ['tpcc', 'tpcc_tt_compat', 'false'],
        ['connection', 'system_user', 'system'],
        ['connection', 'system_password', 'Sys-Pw'],
        ['tpcc', 'tpcc_user', 'tpcc'],
        ['tpcc', 'tpcc_pass', 'Tpcc-Pw'],
        ['connection', 'instance', 'scdb'],
        ['tpcc', 'allwarehouse', 'true'],
        ['tpcc', 'ora_driver', 'timed'],
      ]),
    );
    const masked = maskScript(text);
    expect(masked).toContain('set connect tpcc/********@scdb');
    expect(masked).toContain('set systemconnect system/********@scdb');
    expect(masked).not.toMatch(/Sys-Pw|Tpcc-Pw/);
    // Without rampup and duration it is the test driver.
    expect(settingsToKeys('ora', 'TPC-C', [['total_iterations', '20']])).toEqual([['tpcc', 'total_iterations', '20'], ['tpcc', 'ora_driver', 'test']]);
  });
});

describe('HammerDB 4.3-4.7 GET verbs (their client and manual send the bodiless verbs as GET)', () => {
  const TCL = { 'user-agent': 'Tcl http client package 2.9.5' };
  const tclGet = async (s: SledgeApp, url: string) => {
    const r = await s.app.inject({ method: 'GET', url, headers: TCL });
    expect(r.statusCode, `GET ${url}: ${r.body}`).toBe(200);
    return JSON.parse(r.body) as Json;
  };

  it('loadscript, vucreate, tcstart, tcstatus, vudestroy, tcstop and deleteschema answer GET as POST; a browser page of another site is refused', async () => {
    const s = await makeApp();
    try {
      await hdb(s, 'POST', '/dbset', body({ db: 'sqlite' }));
      await hdb(s, 'POST', '/diset', body({ dict: 'connection', key: 'sqlite_file', value: join(s.dataDir, 'get.sqlite') }));
      expect(await tclGet(s, '/loadscript')).toEqual(ok('script loaded'));
      expect(await tclGet(s, '/vucreate')).toMatchObject({ success: { message: expect.stringMatching(/Virtual Users Created/) } });
      expect(await hdb(s, 'GET', '/vustatus')).not.toEqual(ok('No Virtual Users found'));
      // tcstatus says running from tcstart to tcstop, as HammerDB's counter thread does.
      expect(await tclGet(s, '/tcstatus')).toEqual(ok('Transaction Counter is not running'));
      expect(await tclGet(s, '/tcstart')).toMatchObject({ success: { message: expect.stringMatching(/^Transaction Counter Started/) } });
      expect(await tclGet(s, '/tcstatus')).toEqual(ok('Transaction Counter thread running'));
      expect(await tclGet(s, '/tcstart')).toEqual(ok('Transaction Counter thread already running'));
      expect(await tclGet(s, '/vudestroy')).toEqual(ok('vudestroy success'));
      expect(await tclGet(s, '/tcstop')).toMatchObject({ success: { message: expect.stringMatching(/^Transaction Counter Stopped/) } });
      expect(await tclGet(s, '/tcstatus')).toEqual(ok('Transaction Counter is not running'));
      const del = JSON.stringify(await tclGet(s, '/deleteschema'));
      const id = /JOBID=(\w+)/.exec(del)?.[1];
      expect(id, del).toBeDefined();
      expect(s.store.getJob(id!)!.type).toBe('delete');
      expect(await hdb(s, 'POST', '/waittocomplete', '')).toMatchObject({ success: { message: expect.stringMatching(/all Virtual Users complete/) } });
      // The same GET from a page of another site, or from a browser with no evidence of this site: 403, nothing starts.
      const before = s.store.listJobs({ limit: 1 }).total;
      const vus = await hdb(s, 'GET', '/vustatus');
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'http://evil.example' }, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' }]) {
        for (const url of ['/deleteschema', '/tcstart', '/vucreate']) {
          const r = await s.app.inject({ method: 'GET', url, headers });
          expect(r.statusCode, `${url} ${JSON.stringify(headers)}: ${r.body}`).toBe(403);
        }
      }
      expect(s.store.listJobs({ limit: 1 }).total).toBe(before);
      expect(await tclGet(s, '/tcstatus')).toEqual(ok('Transaction Counter is not running'));
      expect(await hdb(s, 'GET', '/vustatus')).toEqual(vus);
      // A browser on this server's own page (Sec-Fetch-Site same-origin) may.
      const same = await s.app.inject({ method: 'GET', url: '/tcstart', headers: { 'user-agent': 'Mozilla/5.0', 'sec-fetch-site': 'same-origin' } });
      expect(same.statusCode, same.body).toBe(200);
    } finally {
      await s.app.close();
    }
  });

  it('asks for the token on a GET verb when the server has one (?token= as HammerDB scripts pass it)', async () => {
    const s = await makeApp({ token: 'hdb-token' });
    try {
      const denied = await s.app.inject({ method: 'GET', url: '/tcstart', headers: TCL });
      expect(denied.statusCode).toBe(401);
      expect(await tclGet(s, '/tcstatus?token=hdb-token')).toEqual(ok('Transaction Counter is not running'));
      expect(await tclGet(s, '/tcstart?token=hdb-token')).toMatchObject({ success: { message: expect.stringMatching(/^Transaction Counter Started/) } });
      expect(await tclGet(s, '/tcstatus?token=hdb-token')).toEqual(ok('Transaction Counter thread running'));
    } finally {
      await s.app.close();
    }
  });
});
