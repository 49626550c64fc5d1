import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultWarehouses } from '../src/hammerdb/verbs.js';
import { api, getJob, hammerdb, jobIds, sharedServer, uiJob, workloadConfig } from './hammerdb-harness.js';

/**
 * HammerDB CLI scripts in the style of HammerDB's sample scripts
 * (scripts/tcl/<db>/tprocc/*.tcl), run unchanged by `sledge hammerdb`
 * against a Sledge server, on SQLite.
 */
const server = sharedServer();

const BUILD = `#!/bin/tclsh
puts "SETTING CONFIGURATION"
dbset db sqlite
dbset bm TPC-C
set vu 1
set warehouse [ expr {$vu * 1} ]
diset tpcc sqlite_count_ware $warehouse
diset tpcc sqlite_num_vu $vu
print dict
puts "SCHEMA BUILD STARTED"
set result [ buildschema ]
puts "SCHEMA BUILD COMPLETED: $result"
`;

const RUN = `#!/bin/tclsh
puts "SETTING CONFIGURATION"
dbset db sqlite
dbset bm TPC-C
diset tpcc sqlite_driver timed
diset tpcc sqlite_total_iterations 10000000
diset tpcc sqlite_rampup 0
diset tpcc sqlite_duration 0.05
loadscript
puts "TEST STARTED"
vuset vu 2
vucreate
tcstart
tcstatus
set jobid [ vurun ]
vudestroy
tcstop
puts "TEST COMPLETE"
set of [ open $::env(TMP)/sqlite_tprocc w ]
puts $of $jobid
close $of
set fd [ open $::env(TMP)/sqlite_tprocc r ]
set saved [ lindex [ split [ gets $fd ] = ] 1 ]
close $fd
puts "saved jobid $saved"
`;

describe('sledge hammerdb on SQLite', () => {
  it('a build script: HammerDB\'s messages and VU lines, buildschema returns "Schema Build jobid=<id>"', async () => {
    const r = await hammerdb(BUILD, server.flags);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('SETTING CONFIGURATION\nDatabase set to SQLite\nBenchmark set to TPC-C for SQLite\n');
    expect(r.out).toMatch(/^Dictionary Settings for SQLite\nconnection \{\n sqlite_file {9}= tprocc\.sqlite\n/m);
    // hammerdbcli's buildschema: its implicit clearscript, the yes/no question it answers itself, its VU, then the VU's lines.
    expect(r.out).toContain(
      'SCHEMA BUILD STARTED\nScript cleared\nBuilding 1 Warehouses(s) with 1 Virtual User\nReady to create a 1 Warehouse SQLite TPROC-C schema\nin file tprocc.sqlite?\nEnter yes or no: replied yes\nVuser 1 created - WAIT IDLE\nVuser 1:RUNNING\n',
    );
    expect(r.out).toMatch(/^Vuser 1:TPCC SCHEMA COMPLETE\nVuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nSCHEMA BUILD COMPLETED: Schema Build jobid=[0-9A-F]{24}\n$/m);
    const [id] = jobIds(r.out, 'Schema Build');
    const job = await getJob(server.url, id!);
    expect(job.type).toBe('build');
    expect(job.status).toBe('completed');
    expect(job.config.tprocc).toMatchObject({ warehouses: 1, buildVus: 1 });
  });

  it('a v6 build script (HammerDB 6 sample, sizes edited): numberOfWHs and numberOfCPUs, RUNNING and FINISHED for every build VU', async () => {
    const r = await hammerdb(
      `#!/bin/tclsh
# maintainer: Pooja Jain

puts "SETTING CONFIGURATION"
dbset db sqlite
dbset bm TPC-C

set vu [ numberOfCPUs ]
set warehouse [ numberOfWHs ]
puts "SIZED $warehouse warehouses for $vu CPUs"
# sizes edited for the test (the sample builds numberOfWHs warehouses with numberOfCPUs VUs)
set warehouse 2
set vu 2
diset connection sqlite_file $::env(TMP)/v6.sqlite
diset tpcc sqlite_count_ware $warehouse
diset tpcc sqlite_num_vu $vu
puts "SCHEMA BUILD STARTED"
buildschema
puts "SCHEMA BUILD COMPLETED"
# the server's session is shared by this file's tests: back to its default file
diset connection sqlite_file tprocc.sqlite
`,
      server.flags,
    );
    expect(r.code, r.err).toBe(0);
    const cpus = availableParallelism();
    expect(r.out).toContain(`SIZED ${defaultWarehouses(cpus)} warehouses for ${cpus} CPUs\n`);
    // The file is in the script's own $TMP.
    expect(r.out).toMatch(
      /^SCHEMA BUILD STARTED\nScript cleared\nBuilding 2 Warehouses with 3 Virtual Users, 2 active \+ 1 Monitor VU\(dict value sqlite_num_vu is set to 2\)\nReady to create a 2 Warehouse SQLite TPROC-C schema\nin file \/\S+\/v6\.sqlite\?\nEnter yes or no: replied yes\nVuser 1 created MONITOR - WAIT IDLE\nVuser 2 created - WAIT IDLE\nVuser 3 created - WAIT IDLE\nVuser 1:RUNNING\n/m,
    );
    const lines = r.out.split('\n');
    for (const vu of [2, 3]) {
      const running = lines.indexOf(`Vuser ${vu}:RUNNING`);
      const first = lines.findIndex((l) => l.startsWith(`Vuser ${vu}:`) && l !== `Vuser ${vu}:RUNNING`);
      const finished = lines.indexOf(`Vuser ${vu}:FINISHED SUCCESS`);
      const last = lines.findLastIndex((l) => l.startsWith(`Vuser ${vu}:`) && l !== `Vuser ${vu}:FINISHED SUCCESS`);
      // Each worker VU: RUNNING before its first line, FINISHED SUCCESS after its last and before the monitor's.
      expect([running >= 0, running < first, finished > last, finished < lines.indexOf('Vuser 1:FINISHED SUCCESS')], `Vuser ${vu}:\n${r.out}`).toEqual([true, true, true, true]);
      expect(lines.filter((l) => l === `Vuser ${vu}:RUNNING` || l === `Vuser ${vu}:FINISHED SUCCESS`)).toHaveLength(2);
    }
    expect(r.out).toMatch(/^Vuser 1:TPCC SCHEMA COMPLETE\nVuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nSCHEMA BUILD COMPLETED\n/m);
    expect(lines.filter((l) => l === 'Vuser 1:RUNNING')).toHaveLength(1);
  });

  it('numberOfWHs follows HammerDB 6: 8 per CPU, a multiple of 10 up to 100, at most 4000; it takes no arguments', async () => {
    expect([1, 2, 12, 13, 16, 500, 501].map((c) => defaultWarehouses(c))).toEqual([10, 20, 100, 104, 128, 4000, 4000]);
    expect(() => defaultWarehouses(0)).toThrow(/positive integer/);
    const r = await hammerdb('puts [ numberOfWHs ]\nnumberOfWHs 4\n', server.flags);
    expect(r.out).toBe(`${defaultWarehouses(availableParallelism())}\n`);
    expect(r.err).toContain('wrong # args: should be "numberOfWHs"');
  });

  it('a timed run: set jobid [ vurun ] blocks until the run ends and returns "Benchmark Run jobid=<id>"; the job is the one the UI creates', async () => {
    const r = await hammerdb(RUN, server.flags);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Changed tpcc:sqlite_duration from 5 to 0.05 for SQLite\nScript loaded, Type "print script" to view\nTEST STARTED\n');
    // tcstatus right after tcstart: running, as HammerDB's counter thread is.
    expect(r.out).toMatch(/^Transaction Counter Started[^\n]*\nTransaction Counter thread running\n/m);
    expect(r.out).toContain('Vuser 1 created MONITOR - WAIT IDLE\nVuser 2 created - WAIT IDLE\nVuser 3 created - WAIT IDLE\n3 Virtual Users Created with Monitor VU\n');
    expect(r.out).toMatch(/^Vuser 1:RUNNING$/m);
    expect(r.out).toMatch(/^Vuser 1:Beginning rampup time of 0 minutes$/m);
    expect(r.out).toMatch(/^Vuser 1:2 Active Virtual Users configured$/m);
    expect(r.out).toMatch(/^Vuser 1:TEST RESULT : System achieved [1-9]\d* NOPM from [1-9]\d* SQLite TPM$/m);
    for (const vu of [1, 2, 3]) expect(r.out).toMatch(new RegExp(`^Vuser ${vu}:FINISHED SUCCESS$`, 'm'));
    expect(r.out).toMatch(/^ALL VIRTUAL USERS COMPLETE\nVuser 1:WAL checkpoint[^\n]*\nvudestroy success\n/m);
    expect(r.out).toMatch(/TEST COMPLETE\nsaved jobid [0-9A-F]{24}\n$/);
    const id = /saved jobid ([0-9A-F]{24})/.exec(r.out)![1]!;
    const job = await getJob(server.url, id);
    expect(job.status).toBe('completed');
    // The same settings from the UI (REST body): the same stored workload configuration.
    const ui = await uiJob(server.url, { type: 'run', target: { engine: 'sqlite' }, tprocc: { vus: 2, rampup: 0, duration: 0.05 } });
    expect(ui.status).toBe('completed');
    expect(workloadConfig(job)).toEqual(workloadConfig(ui));
  });

  it('vurun with no script and no virtual users loads the script and creates them first, as HammerDB v5/v6\'s CLI does', async () => {
    const r = await hammerdb(
      `dbset db sqlite
dbset bm TPC-C
diset tpcc sqlite_driver timed
diset tpcc sqlite_rampup 0
diset tpcc sqlite_duration 0.05
clearscript
vuset vu 1
set jobid [ vurun ]
vudestroy
puts "RESULT $jobid"
`,
      server.flags,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Script cleared\nScript loaded, Type "print script" to view\nVuser 1 created MONITOR - WAIT IDLE\nVuser 2 created - WAIT IDLE\n2 Virtual Users Created with Monitor VU\n');
    expect(r.out).toMatch(/^Vuser 1:TEST RESULT : System achieved [1-9]\d* NOPM from [1-9]\d* SQLite TPM$/m);
    expect(r.out).toMatch(/^RESULT Benchmark Run jobid=[0-9A-F]{24}$/m);
    expect((await getJob(server.url, jobIds(r.out, 'Benchmark Run')[0]!)).status).toBe('completed');
  });

  it('a profile loop over VU counts: one run job per count, each printing its own active VU count', async () => {
    const r = await hammerdb(
      `dbset db sqlite
diset tpcc sqlite_rampup 0
diset tpcc sqlite_duration 0.05
jobs profileid 7
loadscript
foreach z { 1 2 } {
puts "$z VU TEST"
vuset vu $z
vucreate
set jobid [ vurun ]
lappend ids [ lindex [ split $jobid = ] 1 ]
vudestroy
}
puts "TEST SEQUENCE COMPLETE [ llength $ids ] jobs"
puts "JOBS QUERIES"
jobs [ lindex $ids 0 ] result
jobs format text
jobs [ lindex $ids 0 ] result
jobs format JSON
puts "joblist has both: [ expr {[ lindex $ids 0 ] in [ jobs joblist ] && [ lindex $ids 1 ] in [ jobs joblist ]} ]"
`,
      server.flags,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^1 VU TEST\nVuser 1 created MONITOR - WAIT IDLE\nVuser 2 created - WAIT IDLE\n2 Virtual Users Created with Monitor VU\n/m);
    expect(r.out).toMatch(/^Vuser 1:1 Active Virtual Users configured$/m);
    expect(r.out).toMatch(/^Vuser 1:2 Active Virtual Users configured$/m);
    expect(r.out.match(/^Vuser 1:TEST RESULT : System achieved \d+ NOPM from \d+ SQLite TPM$/gm)).toHaveLength(2);
    expect(r.out).toContain('Setting performance profile id to 7\n');
    // HammerDB's default jobs format, JSON, then the same result as text after `jobs format text`.
    expect(r.out).toMatch(
      /TEST SEQUENCE COMPLETE 2 jobs\nJOBS QUERIES\n\[\n {2}"[0-9A-F]{24}",\n {2}"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d",\n {2}"1 Active Virtual Users configured",\n {2}"TEST RESULT : System achieved \d+ NOPM from \d+ SQLite TPM"\n\]\nSetting jobs output format to text\n[0-9A-F]{24}\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n1 Active Virtual Users configured\nTEST RESULT : System achieved \d+ NOPM from \d+ SQLite TPM\nSetting jobs output format to JSON\njoblist has both: 1\n$/,
    );
    const list = await api<{ jobs: { id: string; type: string; config?: unknown }[] }>(server.url, 'GET', '/jobs?type=run&limit=2');
    const jobs = await Promise.all(list.jobs.map((j) => getJob(server.url, j.id)));
    expect(jobs.map((j) => [j.config.tprocc?.['vus'], j.profileId])).toEqual([
      [2, 7],
      [1, 7],
    ]);
  });

  it('an old script with its own runtimer proc (vucomplete polling) and the built-in helpers; logtotemp writes the VUs\' log, tcstart prints the counter', async () => {
    const t0 = Date.now();
    // The server runs in this process: it writes HammerDB's log to $TMP, as HammerDB's CLI does.
    const tmp = mkdtempSync(join(tmpdir(), 'sledge-hdb-log-'));
    const saved = process.env['TMP'];
    process.env['TMP'] = tmp;
    const r = await hammerdb(
      `proc runtimer { seconds } {
set x 0
set timerstop 0
while {!$timerstop} {
incr x
after 1000
if { ![ expr {$x % 60} ] } {
set y [ expr $x / 60 ]
puts "Timer: $y minutes elapsed"
}
update
if { [ vucomplete ] || $x eq $seconds } { set timerstop 1 }
}
return
}
puts "SETTING CONFIGURATION"
dbset db sqlite
diset tpcc sqlite_rampup 0
diset tpcc sqlite_duration 0.05
vuset logtotemp 1
vuset timestamps 1
tcset refreshrate 1
loadscript
puts "SEQUENCE STARTED"
foreach z { 1 } {
puts "$z VU TEST"
vuset vu $z
vucreate
tcstart
vurun
runtimer 240
tcstop
vudestroy
after 200
}
puts "TEST SEQUENCE COMPLETE"
puts "cpus [numberOfCPUs] complete [vucomplete]"
vuset logtotemp 0
vuset timestamps 0
tcset refreshrate 10
`,
      server.flags,
    ).finally(() => (saved === undefined ? delete process.env['TMP'] : (process.env['TMP'] = saved)));
    expect(r.code, r.err).toBe(0);
    const log = join(tmp, 'hammerdb.log');
    expect(r.out).toContain(`Vuser 2 created - WAIT IDLE\nLogging activated to ${log}\n2 Virtual Users Created with Monitor VU\n`);
    // HammerDB's log: a header, then each VU line as Vuser N:<text>, each after a Timestamp N @ <date> line (vuset timestamps 1).
    const text = readFileSync(log, 'utf8');
    expect(text).toMatch(/^Hammerdb Log @ \w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2} UTC \d{4}\n(\+-){22}\n/);
    expect(text).toMatch(/^Timestamp 1 @ [^\n]+\nVuser 1:TEST RESULT : System achieved [1-9]\d* NOPM from [1-9]\d* SQLite TPM$/m);
    expect(text).toMatch(/^Timestamp 2 @ [^\n]+\nVuser 2:FINISHED SUCCESS$/m);
    expect(text).not.toContain('ALL VIRTUAL USERS COMPLETE');
    const logged = text.split('\n').filter((l) => l.startsWith('Vuser '));
    expect(logged.length).toBe(text.split('\n').filter((l) => l.startsWith('Timestamp ')).length);
    // Every VU line the CLI printed during the run is in the log, in order.
    const printed = r.out.split('\n').filter((l) => /^Vuser \d+:/.test(l));
    expect(logged).toEqual(printed);
    // The transaction counter (tcstart, refresh 1 s) prints HammerDB's `<tpm> SQLite tpm` lines while the run is followed.
    expect(r.out).toMatch(/^\d+ SQLite tpm$/m);
    expect(r.out).toContain('SEQUENCE STARTED\n1 VU TEST\n');
    expect(r.out).toMatch(/^Vuser 1:TEST RESULT : System achieved \d+ NOPM/m);
    expect(r.out).toMatch(/vudestroy success\nTEST SEQUENCE COMPLETE\ncpus [1-9]\d* complete false\nTransaction Counter refresh rate set to 10\n$/);
    // vurun waited for the run, so the script's runtimer saw vucomplete true at once (not 240 s).
    expect(Date.now() - t0).toBeLessThan(60_000);
  });

  it('metstart in-process (--local, as hammerdbcli runs) starts the local CPU agent, as HammerDB\'s CLI does', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sledge-hdb-metstart-'));
    const r = await hammerdb('metstart\nmetstatus\nmetstop\nmetstatus\n', ['--local', '--data-dir', dataDir]);
    expect(r.code, r.err).toBe(0);
    const host = hostname();
    expect(r.out).toMatch(new RegExp(`^Starting Local Metrics Agent on ${host}\nStarted CPU Metrics for .+:\\(\\d+ CPUs\\) from agent ${host} \\(local\\); every following job records them\n`));
    expect(r.out).toContain(`CPU Metrics are running on ${host}, Metrics Agent running on localhost:10000 (${host} (local))\n`);
    expect(r.out).toMatch(/Stopping Metrics Agent and Display on localhost:10000[^\n]*\nCPU Metrics are not running on /);
  });

  it('TPROC-H: dbset bm TPC-H, a small scale factor build and a power run', async () => {
    const r = await hammerdb(
      `dbset db sqlite
dbset bm TPC-H
diset tpch sqlite_scale_fact 0.01
diset tpch sqlite_num_tpch_threads 1
diset tpch sqlite_total_querysets 1
puts [ buildschema ]
loadscript
vuset vu 1
vucreate
set jobid [ vurun ]
vudestroy
puts "RESULT $jobid"
`,
      server.flags,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Benchmark set to TPC-H for SQLite\nChanged tpch:sqlite_scale_fact from 1 to 0.01 for SQLite\n');
    expect(r.out).toContain('Building Scale Factor 0.01 with 2 Virtual Users, 1 active + 1 Monitor VU(dict value sqlite_num_tpch_threads is set to 1)\n');
    expect(r.out).toMatch(/^Schema Build jobid=[0-9A-F]{24}$/m);
    // HammerDB 4.12's TPROC-H driver has no monitor VU: one query stream, one VU.
    expect(r.out).toContain('Vuser 1 created - WAIT IDLE\n1 Virtual Users Created\n');
    expect(r.out).toMatch(/^Vuser 1:query 14 completed in \d+\.\d{3} seconds$/m);
    expect(r.out).toMatch(/^Vuser 1:Completed 1 query set\(s\) in \d+ seconds$/m);
    expect(r.out).toMatch(/^Vuser 1:Geometric mean of query times returning rows \(\d+\) is \d+\.\d{5}$/m);
    expect(r.out).toMatch(/^RESULT Benchmark Run jobid=[0-9A-F]{24}$/m);
    const run = await getJob(server.url, jobIds(r.out, 'Benchmark Run')[0]!);
    expect(run.status).toBe('completed');
    expect(run.workload).toBe('tproch');
    const ui = await uiJob(server.url, { type: 'run', workload: 'tproch', target: { engine: 'sqlite', file: 'tproch.sqlite' }, tproch: { scaleFactor: 0.01, mode: 'power' } });
    expect(ui.status).toBe('completed');
    expect(workloadConfig(run)).toEqual(workloadConfig(ui));
  });
});
